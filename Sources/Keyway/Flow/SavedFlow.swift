import Foundation

/// What it takes to pick an unfinished flow up in another process: kept in the app's
/// ``SecureStorage`` (when ``KeywayOptions/resumableFlowStorage`` is set) from the flow's first
/// step until it completes, is cancelled, fails for good or expires.
struct SavedFlow: Codable, Sendable, Equatable {
    /// The format version.
    var version = 1
    var server: String
    var configId: String
    var flowId: String
    var flowToken: String
    /// The PKCE verifier, when the SDK generated the challenge.
    var codeVerifier: String?
    var flowExpiresAt: Date?
    /// The OpenID Connect parameters the flow was started with (absent in flows saved before
    /// they existed).
    var nonce: String?
    var scope: String?
    var redirectURI: String?
    var state: String?

    /// The storage key of a config ID's saved flow.
    static func key(configId: String) -> String { "keyway.flow.\(configId)" }

    /// Flow IDs are path segments of the server's making: letters, digits, `_` and `-`.
    var hasValidFlowId: Bool { ServerURL.isPathSegment(flowId) }
}
