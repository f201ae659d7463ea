/// The COSE algorithms (IANA "COSE Algorithms" registry) Keyway verifies passkey signatures with.
enum COSEAlgorithm: Int, Sendable, Codable, CaseIterable {
    /// ECDSA with SHA-256 on P-256; WebAuthn sends its signatures DER-encoded.
    case es256 = -7
    /// EdDSA; Keyway accepts Ed25519 keys.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
