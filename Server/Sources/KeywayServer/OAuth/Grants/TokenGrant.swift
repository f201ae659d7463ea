import Foundation
import KeywayProtocol

/// One grant type of the token endpoint: its `grant_type` and how it answers a request.
///
/// Discovery's `grant_types_supported`, dynamic registration's accepted `grant_types` and the
/// token endpoint all read ``TokenGrants/all``: a grant is a file of this folder and a line there,
/// and a `grant_type` that is not listed can only be refused (`unsupported_grant_type`).
protocol TokenGrant: Sendable {
    /// The `grant_type` value (RFC 6749 §4.1.3, §6; RFC 8693 §2.1).
    var grantType: String { get }
    /// The grant's name in `keyway_tokens_issued_total{grant}`.
    var metricName: String { get }
    /// Answers `request`, whose client is authenticated and registered for the grant, and whose
    /// DPoP proof is checked (``TokenRequest/binding``).
    func issue(_ request: TokenRequest, on endpoint: TokenEndpoint) async throws -> TokenResponse
}

/// A token request as a grant receives it.
struct TokenRequest: Sendable {
    /// The form's parameters.
    var form: [String: String]
    /// The authenticated client.
    var application: ApplicationRecord
    /// The DPoP key thumbprint the new tokens are bound to, if the request carried a proof.
    var binding: String?
    /// That DPoP proof.
    var dpopProof: String?
    /// The App Attest assertion the request carried, if any.
    var appAttestEvidence: AppAttestEvidence?
}

/// The grants the token endpoint answers, in the order discovery lists them.
enum TokenGrants {
    static let all: [any TokenGrant] = [AuthorizationCodeGrant(), RefreshTokenGrant(), TokenExchangeGrant()]

    /// Every `grant_type` answered.
    static let grantTypes = all.map(\.grantType)

    /// The grant of `grantType`, if the endpoint answers it.
    static func named(_ grantType: String) -> (any TokenGrant)? {
        all.first { $0.grantType == grantType }
    }
}
