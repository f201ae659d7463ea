import Foundation
import KeywayPowerAuth
import KeywayProtocol

/// MAC token-based authentication: an app that holds a token (`/pa/v3/token/create`) sends an
/// `X-PowerAuth-Token` header instead of a full signature for cheap, read-only calls; the backend
/// asks the Keyway server whether it is valid (`POST /v1/powerauth/tokens/verify`). The server
/// keeps the tokens' secrets and refuses a header seen before.
extension KeywayBackend {
    /// Verifies an `X-PowerAuth-Token` header (versions 3.2 and 3.3).
    ///
    /// - Parameters:
    ///   - header: The header's value:
    ///     `PowerAuth token_id="…", token_digest="…", nonce="…", timestamp="…", version="3.3"`.
    ///   - requiredFactors: The least the token must prove (the factors of the signature that
    ///     created it).
    /// - Returns: The server's verdict; a refused token is an answer, not an error.
    /// - Throws: ``KeywayBackendError`` when the input is unusable or the server cannot answer.
    public func verifyToken(
        header: String, requiredFactors: PowerAuthSignatureFactors = [.possession]
    ) async throws -> TokenVerification {
        guard !header.isEmpty, header.utf8.count <= 1024 else {
            throw KeywayBackendError.invalidConfiguration("The X-PowerAuth-Token header is empty or too long.")
        }
        guard !requiredFactors.isEmpty else {
            throw KeywayBackendError.invalidConfiguration("At least one factor must be required.")
        }
        let body = try await postJSON(
            "/v1/powerauth/tokens/verify", ["authorization": header, "requiredFactors": requiredFactors.typeName])
        guard let answer = try? JSONDecoder().decode(TokenVerificationResponse.self, from: body) else {
            throw KeywayBackendError.serverUnavailable("The token verification answer could not be read.")
        }
        return answer.verification
    }
}

/// The Keyway server's answer about one `X-PowerAuth-Token` header.
public struct TokenVerification: Sendable, Equatable {
    /// Whether the token is valid, fresh, not replayed, of an ACTIVE activation, with at least
    /// the required factors.
    public var isValid: Bool
    /// The activation the token belongs to (when it is known).
    public var activationId: String?
    /// The activation's user.
    public var userId: String?
    /// The token.
    public var tokenId: String?
    /// The factors of the signature that created the token.
    public var factors: PowerAuthSignatureFactors
    /// Why the token was refused: `TOKEN_INVALID`, `TOKEN_EXPIRED`, `TOKEN_REPLAYED`,
    /// `ACTIVATION_INACTIVE` or `INSUFFICIENT_FACTORS`; `nil` when it is valid.
    public var refusal: SignatureVerification.Refusal?

    public init(
        isValid: Bool, activationId: String?, userId: String?, tokenId: String?, factors: PowerAuthSignatureFactors,
        refusal: SignatureVerification.Refusal?
    ) {
        self.isValid = isValid
        self.activationId = activationId
        self.userId = userId
        self.tokenId = tokenId
        self.factors = factors
        self.refusal = refusal
    }
}

/// The wire form of the token verification answer.
struct TokenVerificationResponse: Decodable {
    var valid: Bool
    var activationId: String?
    var userId: String?
    var tokenId: String?
    var factors: String?
    var error: SignatureVerification.Refusal?

    var verification: TokenVerification {
        TokenVerification(
            isValid: valid, activationId: activationId, userId: userId, tokenId: tokenId,
            factors: factors.flatMap { PowerAuthSignatureFactors(typeName: $0) } ?? [],
            refusal: valid ? nil : (error ?? .init(code: "TOKEN_INVALID", message: "The token is not valid.")))
    }
}
