import Foundation

/// A token the device holds for MAC token-based authentication (`X-PowerAuth-Token`), under the
/// name the app chose. Its secret stays in the secure storage.
public struct PowerAuthToken: Sendable, Equatable {
    /// The app's name for the token.
    public let name: String
    /// The server's ID of the token (a UUID).
    public let tokenID: String
    /// The factors of the signature that created it (what a backend can require).
    public let factors: PowerAuthSignatureFactors
    /// When the device received it.
    public let createdAt: Date
}
