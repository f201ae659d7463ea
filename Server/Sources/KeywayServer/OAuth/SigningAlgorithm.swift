/// The algorithms the server signs tokens with, each with keys of its own and a rotation
/// schedule of its own.
///
/// Access tokens are always `ES256`. ID tokens are signed with the algorithm the application
/// chose (`id_token_signed_response_alg`): `ES256` for applications an administrator creates
/// unless set otherwise, `RS256` for clients registered dynamically unless they ask for `ES256`
/// (OpenID Connect Dynamic Client Registration 1.0 §2).
enum SigningAlgorithm: String, Sendable, CaseIterable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 and a 2048-bit key (RFC 7518 §3.3).
    case rs256 = "RS256"
    /// ECDSA with P-256 and SHA-256 (RFC 7518 §3.4).
    case es256 = "ES256"

    /// The names, as discovery lists them (`id_token_signing_alg_values_supported`).
    static let names = allCases.map(\.rawValue)
}
