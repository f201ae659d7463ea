import Crypto
import CryptoExtras
import Foundation

/// The protocol versions 3.x, which differ in their ECIES envelopes and token digests.
public enum PowerAuthVersion: String, Sendable, Hashable, CaseIterable {
    /// 3.0: zero IV, MAC over the ciphertext and `SHARED_INFO_2_BASE`.
    case v30 = "3.0"
    /// 3.1: the IV derived from the request's nonce (the response reuses it).
    case v31 = "3.1"
    /// 3.2: a nonce and a timestamp in each direction, `SHARED_INFO_2` with sizes and associated data.
    case v32 = "3.2"
    /// 3.3: as 3.2, with the temporary key's ID in the associated data.
    case v33 = "3.3"

    /// Whether an ECIES envelope carries a nonce (3.1 and later).
    public var usesNonce: Bool { self != .v30 }

    /// Whether each ECIES direction has its own nonce and a timestamp, and a token digest covers
    /// the version (3.2 and later).
    public var usesTimestamp: Bool { self == .v32 || self == .v33 }
}

/// The direction of an envelope: the ephemeral public key enters only a request's MAC.
public enum EciesDirection: Sendable, Hashable {
    /// From the client to the server.
    case request
    /// From the server to the client.
    case response
}

/// The protocol's `SHARED_INFO_1` constants.
public enum EciesSharedInfo1: String, Sendable, CaseIterable {
    /// Generic encryptor in application scope, and the activation's first layer.
    case applicationScopeGeneric = "/pa/generic/application"
    /// Generic encryptor in activation scope.
    case activationScopeGeneric = "/pa/generic/activation"
    /// The activation's second layer.
    case activationLayer2 = "/pa/activation"
    /// Protocol upgrade.
    case upgrade = "/pa/upgrade"
    /// Vault unlock.
    case vaultUnlock = "/pa/vault/unlock"
    /// Token creation.
    case createToken = "/pa/token/create"
    /// Recovery code confirmation.
    case confirmRecoveryCode = "/pa/recovery/confirm"

    /// The constant's UTF-8 bytes.
    public var bytes: Data { Data(rawValue.utf8) }
}

/// The 48-byte key of one request–response cycle: `KEY_ENC ‖ KEY_MAC ‖ KEY_IV`, and the ephemeral
/// public key it was agreed with.
public struct EciesEnvelopeKey: Sendable {
    /// `KEY_ENC`, the AES-128 key.
    public let encryptionKey: SymmetricKey
    /// `KEY_MAC`, the HMAC-SHA256 key.
    public let macKey: SymmetricKey
    /// `KEY_IV`, the key that derives IVs from nonces.
    public let ivKey: SymmetricKey
    /// `KEY_EPH_PUB` exactly as sent (33 or 65 bytes).
    public let ephemeralPublicKey: Data

    /// Wraps an envelope key that is already known.
    ///
    /// - Parameters:
    ///   - bytes: The 48 bytes `KEY_ENC ‖ KEY_MAC ‖ KEY_IV`.
    ///   - ephemeralPublicKey: The ephemeral public key as sent.
    /// - Throws: `PowerAuthError.invalidLength` when there are not 48 bytes.
    public init(bytes: Data, ephemeralPublicKey: Data) throws(PowerAuthError) {
        try Bytes.require(bytes, count: 48, field: "envelope key")
        let array = Array(bytes)
        encryptionKey = SymmetricKey(data: array[0..<16])
        macKey = SymmetricKey(data: array[16..<32])
        ivKey = SymmetricKey(data: array[32..<48])
        self.ephemeralPublicKey = ephemeralPublicKey
    }

    /// The client's side: agrees a key with the server's public key through a new (or given)
    /// ephemeral key pair, then X9.63-KDF with SHA-256 to 48 bytes, with the info
    /// `SHARED_INFO_1 ‖ KEY_EPH_PUB` (3.0, 3.1) or `VERSION ‖ SHARED_INFO_1 ‖ KEY_EPH_PUB` (3.2+).
    ///
    /// - Parameters:
    ///   - publicKey: `KEY_ENC_PUB`, the server's (temporary) public key.
    ///   - sharedInfo1: `SHARED_INFO_1` of the endpoint.
    ///   - version: The protocol version.
    ///   - ephemeralPrivateKey: The ephemeral key; a new one by default.
    ///   - compressed: Whether to send the ephemeral public key compressed (33 bytes), as mobile
    ///     clients do, or uncompressed (65 bytes).
    /// - Returns: The envelope key.
    /// - Throws: `PowerAuthError.invalidKey` when the agreement fails.
    public static func forRequest(
        publicKey: P256.KeyAgreement.PublicKey, sharedInfo1: Data, version: PowerAuthVersion,
        ephemeralPrivateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(), compressed: Bool = true
    ) throws(PowerAuthError) -> EciesEnvelopeKey {
        let ephemeralPublic = compressed
            ? ephemeralPrivateKey.publicKey.compressedRepresentation : ephemeralPrivateKey.publicKey.x963Representation
        return try derive(privateKey: ephemeralPrivateKey, publicKey: publicKey, ephemeralPublicKey: ephemeralPublic,
                          sharedInfo1: sharedInfo1, version: version)
    }

    /// The server's side: agrees the key of a request with the ephemeral public key it carries.
    ///
    /// - Parameters:
    ///   - privateKey: `KEY_ENC_PRIV`, the server's (temporary) private key.
    ///   - ephemeralPublicKey: `KEY_EPH_PUB` as received (33 or 65 bytes).
    ///   - sharedInfo1: `SHARED_INFO_1` of the endpoint.
    ///   - version: The protocol version.
    /// - Returns: The envelope key.
    /// - Throws: `PowerAuthError.invalidKey` when the ephemeral key is not a P-256 point.
    public static func forResponse(
        privateKey: P256.KeyAgreement.PrivateKey, ephemeralPublicKey: Data, sharedInfo1: Data, version: PowerAuthVersion
    ) throws(PowerAuthError) -> EciesEnvelopeKey {
        let ephemeral = try PowerAuthKeys.publicKey(ephemeralPublicKey)
        return try derive(privateKey: privateKey, publicKey: ephemeral, ephemeralPublicKey: ephemeralPublicKey,
                          sharedInfo1: sharedInfo1, version: version)
    }

    private static func derive(
        privateKey: P256.KeyAgreement.PrivateKey, publicKey: P256.KeyAgreement.PublicKey, ephemeralPublicKey: Data,
        sharedInfo1: Data, version: PowerAuthVersion
    ) throws(PowerAuthError) -> EciesEnvelopeKey {
        let shared: SharedSecret
        do {
            shared = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw .invalidKey(field: "public key")
        }
        var info = version.usesTimestamp ? Data(version.rawValue.utf8) : Data()
        info.append(sharedInfo1)
        info.append(ephemeralPublicKey)
        let key = shared.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: info, outputByteCount: 48)
        return try EciesEnvelopeKey(bytes: key.data, ephemeralPublicKey: ephemeralPublicKey)
    }
}

/// An ECIES envelope as it travels: the ciphertext, its MAC and, by version, the ephemeral public
/// key (requests), the nonce and the timestamp.
public struct EciesPayload: Sendable, Hashable {
    /// The AES-128-CBC (PKCS #7) ciphertext.
    public var encryptedData: Data
    /// The HMAC-SHA256 of the ciphertext and `SHARED_INFO_2`.
    public var mac: Data
    /// `KEY_EPH_PUB` (requests only).
    public var ephemeralPublicKey: Data?
    /// The 16-byte nonce (3.1+; a 3.1 response uses its request's nonce).
    public var nonce: Data?
    /// Unix time in milliseconds (3.2+).
    public var timestamp: UInt64?

    /// Builds a payload.
    ///
    /// - Parameters:
    ///   - encryptedData: The ciphertext.
    ///   - mac: The MAC.
    ///   - ephemeralPublicKey: The ephemeral public key of a request.
    ///   - nonce: The nonce (3.1+). For a 3.1 response, pass the request's nonce.
    ///   - timestamp: The timestamp in milliseconds (3.2+).
    public init(encryptedData: Data, mac: Data, ephemeralPublicKey: Data? = nil, nonce: Data? = nil, timestamp: UInt64? = nil) {
        self.encryptedData = encryptedData
        self.mac = mac
        self.ephemeralPublicKey = ephemeralPublicKey
        self.nonce = nonce
        self.timestamp = timestamp
    }
}

/// Everything both parties need to seal and open the envelopes of one request–response cycle.
public struct EciesContext: Sendable {
    /// The protocol version.
    public let version: PowerAuthVersion
    /// The envelope key.
    public let envelopeKey: EciesEnvelopeKey
    /// `SHARED_INFO_2_BASE` (``applicationScopeSharedInfo2Base(applicationSecret:)`` or
    /// ``activationScopeSharedInfo2Base(applicationSecret:transportKey:)``).
    public let sharedInfo2Base: Data
    /// `ASSOCIATED_DATA` (3.2+; see ``associatedData(version:applicationKey:activationID:temporaryKeyID:)``).
    public let associatedData: Data

    /// Builds a context.
    ///
    /// - Parameters:
    ///   - version: The protocol version.
    ///   - envelopeKey: The envelope key.
    ///   - sharedInfo2Base: `SHARED_INFO_2_BASE`.
    ///   - associatedData: `ASSOCIATED_DATA` (ignored before 3.2).
    public init(version: PowerAuthVersion, envelopeKey: EciesEnvelopeKey, sharedInfo2Base: Data, associatedData: Data) {
        self.version = version
        self.envelopeKey = envelopeKey
        self.sharedInfo2Base = sharedInfo2Base
        self.associatedData = associatedData
    }

    /// `SHARED_INFO_2_BASE` in application scope: SHA-256 of the application secret's Base64 text.
    ///
    /// - Parameter applicationSecret: `APPLICATION_SECRET` as its Base64 text.
    /// - Returns: 32 bytes.
    public static func applicationScopeSharedInfo2Base(applicationSecret: String) -> Data {
        Data(SHA256.hash(data: Data(applicationSecret.utf8)))
    }

    /// `SHARED_INFO_2_BASE` in activation scope: HMAC-SHA256 keyed with `KEY_TRANSPORT` over the
    /// application secret's Base64 text.
    ///
    /// - Parameters:
    ///   - applicationSecret: `APPLICATION_SECRET` as its Base64 text.
    ///   - transportKey: `KEY_TRANSPORT`.
    /// - Returns: 32 bytes.
    public static func activationScopeSharedInfo2Base(applicationSecret: String, transportKey: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(applicationSecret.utf8), using: transportKey))
    }

    /// `ASSOCIATED_DATA`: the version, the application key, the activation ID (activation scope) and
    /// the temporary key ID (3.3), each preceded by its 4-byte big-endian length.
    ///
    /// - Parameters:
    ///   - version: The protocol version.
    ///   - applicationKey: `APPLICATION_KEY` as its Base64 text.
    ///   - activationID: The activation ID in activation scope, `nil` in application scope.
    ///   - temporaryKeyID: The temporary key's ID (3.3), or `nil`.
    /// - Returns: The associated data.
    public static func associatedData(
        version: PowerAuthVersion, applicationKey: String, activationID: String?, temporaryKeyID: String?
    ) -> Data {
        var parts = [Data(version.rawValue.utf8), Data(applicationKey.utf8)]
        if let activationID { parts.append(Data(activationID.utf8)) }
        if let temporaryKeyID { parts.append(Data(temporaryKeyID.utf8)) }
        return concatenateWithSizes(parts)
    }

    /// Seals plaintext.
    ///
    /// - Parameters:
    ///   - plaintext: The data to encrypt.
    ///   - direction: Request (the ephemeral public key enters the MAC and the payload) or response.
    ///   - nonce: A fresh 16-byte nonce (3.1+; for a 3.1 response, the request's nonce).
    ///   - timestamp: Unix time in milliseconds (3.2+).
    /// - Returns: The payload to send.
    /// - Throws: `PowerAuthError.missingValue` or `.invalidLength` for a nonce or timestamp the
    ///   version needs.
    public func encrypt<D: DataProtocol>(
        _ plaintext: D, direction: EciesDirection, nonce: Data?, timestamp: UInt64?
    ) throws(PowerAuthError) -> EciesPayload {
        let iv = try self.iv(nonce: nonce)
        let encrypted: Data
        do {
            encrypted = try AES._CBC.encrypt(plaintext, using: envelopeKey.encryptionKey, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .decryptionFailed
        }
        let ephemeral = direction == .request ? envelopeKey.ephemeralPublicKey : nil
        let mac = try self.mac(encrypted, ephemeral: ephemeral, nonce: nonce, timestamp: timestamp)
        return EciesPayload(
            encryptedData: encrypted, mac: mac, ephemeralPublicKey: ephemeral,
            nonce: version.usesNonce ? nonce : nil, timestamp: version.usesTimestamp ? timestamp : nil)
    }

    /// Opens a payload: checks its MAC in constant time, then decrypts it.
    ///
    /// - Parameters:
    ///   - payload: The received payload (a 3.1 response carries its request's nonce).
    ///   - direction: Whether it is a request or a response.
    /// - Returns: The plaintext.
    /// - Throws: `PowerAuthError.authenticationFailed` when the MAC does not match,
    ///   `.decryptionFailed`, or `.missingValue`/`.invalidLength` for a missing nonce or timestamp.
    public func decrypt(_ payload: EciesPayload, direction: EciesDirection) throws(PowerAuthError) -> Data {
        let ephemeral = direction == .request ? envelopeKey.ephemeralPublicKey : nil
        let expected = try mac(payload.encryptedData, ephemeral: ephemeral, nonce: payload.nonce, timestamp: payload.timestamp)
        guard ConstantTimeBytes.equals(Array(expected), Array(payload.mac)) else { throw .authenticationFailed }
        let iv = try self.iv(nonce: payload.nonce)
        do {
            return try AES._CBC.decrypt(payload.encryptedData, using: envelopeKey.encryptionKey, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .decryptionFailed
        }
    }

    /// The IV: zero in 3.0, `KDF_INTERNAL(KEY_IV, NONCE)` later.
    private func iv(nonce: Data?) throws(PowerAuthError) -> Data {
        guard version.usesNonce else { return Data(count: 16) }
        guard let nonce else { throw .missingValue(field: "ECIES nonce") }
        try Bytes.require(nonce, count: 16, field: "ECIES nonce")
        return PowerAuthKDF.deriveInternal(key: envelopeKey.ivKey, data: nonce).data
    }

    /// `HMAC(KEY_MAC, DATA_ENCRYPTED ‖ SHARED_INFO_2)`.
    private func mac(_ encrypted: Data, ephemeral: Data?, nonce: Data?, timestamp: UInt64?) throws(PowerAuthError) -> Data {
        var data = encrypted
        if version.usesTimestamp {
            guard let nonce else { throw .missingValue(field: "ECIES nonce") }
            guard let timestamp else { throw .missingValue(field: "ECIES timestamp") }
            data.append(Self.concatenateWithSizes([
                sharedInfo2Base, nonce, Data(Bytes.bigEndian(timestamp, width: 8)), ephemeral ?? Data(), associatedData,
            ]))
        } else {
            data.append(sharedInfo2Base)
        }
        return Data(HMAC<SHA256>.authenticationCode(for: data, using: envelopeKey.macKey))
    }

    /// Each part preceded by its length as 4 big-endian bytes.
    static func concatenateWithSizes(_ parts: [Data]) -> Data {
        parts.reduce(into: Data()) { result, part in
            result.append(contentsOf: Bytes.bigEndian(UInt64(part.count), width: 4))
            result.append(part)
        }
    }
}
