import Foundation

/// The seam between the SDK and a browser: it opens the authorization URL and returns the URL the
/// server sent the browser back to. ``WebAuthenticationBrowserSession`` is the one for iOS and
/// macOS apps (`ASWebAuthenticationSession`); a desktop or command-line app passes its own (the
/// `keyway` CLI opens the system browser and listens on a loopback port).
///
/// The SDK checks everything in the callback itself (`state`, `iss`, errors, the code): an
/// implementation only carries the URL.
public protocol BrowserSession: Sendable {
    /// Opens `url` and waits for the browser to come back to `callbackURL`.
    ///
    /// - Parameters:
    ///   - url: The authorization URL (``AuthorizationRequest/url``).
    ///   - callbackURL: The redirect URI of the request: the callback arrives there (its scheme
    ///     for a private-use scheme, its host and path for `https`, its port for a loopback one).
    /// - Returns: The full callback URL, with its query.
    /// - Throws: ``BrowserSignInError/cancelled`` when the user closed the browser, or
    ///   ``BrowserSignInError/browserFailed(_:)``; a cancelled task may throw `CancellationError`.
    func authorize(url: URL, callbackURL: URL) async throws -> URL
}
