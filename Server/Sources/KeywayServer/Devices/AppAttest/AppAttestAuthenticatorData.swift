import Foundation

/// The authenticator data of an App Attest attestation or assertion (the WebAuthn layout): the
/// relying-party ID hash, flags, the signature counter and, in an attestation, the AAGUID and
/// the credential ID.
struct AppAttestAuthenticatorData: Equatable {
    var rpIDHash: Data
    var flags: UInt8
    var counter: UInt32
    /// In an attestation: `appattest` and seven zero bytes (production) or `appattestdevelop`.
    var aaguid: Data?
    var credentialID: Data?

    /// The AAGUID of each App Attest environment.
    static func aaguid(for environment: AppAttestEnvironment) -> Data {
        switch environment {
        case .production: Data("appattest".utf8) + Data(repeating: 0, count: 7)
        case .development: Data("appattestdevelop".utf8)
        }
    }

    /// Parses `data`. The attested-credential part is read for an attestation only (`attested`),
    /// and must be there (the AT flag, 0x40, set); an assertion's flags are not relied on.
    init(_ data: Data, attested: Bool) throws(AppAttestFailure) {
        let bytes = [UInt8](data)
        guard bytes.count >= 37 else { throw .malformed("the authenticator data is shorter than 37 bytes") }
        rpIDHash = Data(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard attested else { return }
        guard flags & 0x40 != 0 else { throw .malformed("the authenticator data has no attested credential") }
        guard bytes.count >= 55 else { throw .malformed("the attested credential data is cut short") }
        aaguid = Data(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else { throw .malformed("the credential ID is cut short") }
        credentialID = Data(bytes[55..<(55 + length)])
    }
}
