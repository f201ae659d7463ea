import Foundation
import KeywayJOSE
import KeywayProtocol

/// Signature checks of JWS from other parties (external issuers, client assertions) against
/// their published keys: `ES256` with EC P-256 keys and `RS256` with RSA keys of 2048 bits or more.
enum JWKSignatures {
    /// The algorithms accepted from other parties. `none` and HMAC are never accepted with a JWK.
    static let supportedAlgorithms = ["ES256", "RS256"]

    /// Whether a key is usable for one of the supported algorithms.
    static func validate(_ key: JSONWebKey) throws {
        switch key.kty {
        case "EC":
            _ = try ECJWK.publicKey(from: key)
            if let alg = key.alg, alg != "ES256" { throw JOSEError.unsupportedAlgorithm(alg) }
        case "RSA":
            _ = try RSAJWK.publicKey(from: key)
            if let alg = key.alg, alg != "RS256" { throw JOSEError.unsupportedAlgorithm(alg) }
        default:
            throw JOSEError.malformed("key type \(key.kty) is not supported; use EC P-256 or RSA")
        }
        if let use = key.use, use != "sig" { throw JOSEError.malformed("the key's use is \(use), not sig") }
    }

    /// The reasons a key set cannot be used for signature checks; empty when it can.
    static func problems(in keys: JSONWebKeySet) -> [String] {
        var problems: [String] = []
        if keys.keys.isEmpty || keys.keys.count > 20 {
            problems.append("The key set must hold 1 to 20 keys.")
        }
        for (index, key) in keys.keys.enumerated() {
            do {
                try validate(key)
            } catch {
                problems.append("Key \(index + 1)\(key.kid.map { " (\($0))" } ?? ""): \(error)")
            }
        }
        let kids = keys.keys.compactMap(\.kid)
        if Set(kids).count != kids.count { problems.append("Two keys share a kid.") }
        if keys.keys.count > 1, kids.count != keys.keys.count {
            problems.append("With several keys, every key needs a kid.")
        }
        return problems
    }

    /// The key of `keys` a JWS names by `kid`; without a `kid`, the only key of the algorithm's type.
    static func key(for jws: CompactJWS, in keys: [JSONWebKey]) throws -> JSONWebKey {
        let keyType = jws.algorithm == "RS256" ? "RSA" : "EC"
        let candidates = keys.filter { $0.kty == keyType && (jws.keyID == nil || $0.kid == jws.keyID) }
        guard candidates.count == 1, let key = candidates.first else { throw JOSEError.unknownKey(jws.keyID) }
        return key
    }

    /// Verifies the signature of `jws` with `key`. The algorithm must match the key type.
    static func verify(_ jws: CompactJWS, with key: JSONWebKey) throws {
        guard let algorithm = jws.algorithm, supportedAlgorithms.contains(algorithm) else {
            throw JOSEError.unsupportedAlgorithm(jws.algorithm ?? "(none)")
        }
        try jws.verify(with: key)
    }
}
