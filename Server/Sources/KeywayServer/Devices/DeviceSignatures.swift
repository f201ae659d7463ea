import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// Checks the ES256 signatures trusted devices make over ``DeviceSigningInput``.
enum DeviceSignatures {
    /// Whether `signature` (raw `r‖s`, base64url) by the key of `jwk` signs `input`.
    static func verify(_ signature: String, of input: DeviceSigningInput, with jwk: JSONWebKey) -> Bool {
        guard let data = input.data, let key = try? ECJWK.publicKey(from: jwk) else { return false }
        return verify(signature, of: data, with: key)
    }

    /// Whether `signature` by the key of the stored JWK JSON signs `input`.
    static func verify(_ signature: String, of input: DeviceSigningInput, storedKey: String) -> Bool {
        guard let jwk = try? JSONDecoder().decode(JSONWebKey.self, from: Data(storedKey.utf8)) else { return false }
        return verify(signature, of: input, with: jwk)
    }

    private static func verify(_ signature: String, of data: Data, with key: P256.Signing.PublicKey) -> Bool {
        guard signature.utf8.count <= 100, let raw = Base64URL.decode(signature), raw.count == 64,
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
        else { return false }
        return key.isValidSignature(parsed, for: data)
    }

    /// A fresh single-use challenge: 32 random bytes, base64url.
    static func newChallenge() -> String {
        SecureRandom.token(prefix: "kdc")
    }
}

extension TrustedDevice {
    /// The wire form of a stored device.
    init(_ record: TrustedDeviceRecord) {
        self.init(
            id: record.id, name: record.name, hardwareBacked: record.hardwareBacked, userAgent: record.userAgent,
            createdAt: Date(epochMilliseconds: record.createdAt),
            lastUsedAt: record.lastUsedAt.map { Date(epochMilliseconds: $0) },
            trustedUntil: Date(epochMilliseconds: record.trustedUntil))
    }
}

/// Where a request comes from, coarsely: an IPv4 address without its last byte (`203.0.113.x`),
/// an IPv6 address cut to its first three groups (`2001:db8:1::/48`).
enum CoarseLocation {
    static func of(_ address: String?) -> String? {
        guard let address, !address.isEmpty else { return nil }
        if address.contains("."), !address.contains(":") {
            let parts = address.split(separator: ".")
            guard parts.count == 4 else { return nil }
            return parts.prefix(3).joined(separator: ".") + ".x"
        }
        let groups = address.split(separator: ":", omittingEmptySubsequences: false)
        guard groups.count >= 3 else { return nil }
        return groups.prefix(3).joined(separator: ":") + "::/48"
    }
}
