import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// Why a DPoP proof was refused.
enum DPoPFailure: Error, Equatable {
    /// `invalid_dpop_proof`, with a sentence for the client.
    case invalid(String)
    /// `use_dpop_nonce`: the proof must carry a nonce the server issued (RFC 9449 §8).
    case useNonce
}

/// Checks DPoP proofs (RFC 9449 §4.3) and issues server nonces (§8).
///
/// Nonces are stateless: `base64url(time ‖ HMAC-SHA256(key, time)[0..<16])`, valid for five
/// minutes, so any server instance sharing the database's key accepts them. Proof `jti`s are
/// recorded in the database until the proof could no longer be accepted, so a replay is refused
/// across restarts and instances.
struct DPoPVerifier: Sendable {
    let clock: any ServerClock
    let nonceKey: SymmetricKey
    /// How far a proof's `iat` may be from the server's clock.
    var window: TimeInterval = 60
    /// How long a nonce is accepted.
    var nonceLifetime: TimeInterval = 300

    /// A verified proof.
    struct Proof: Sendable, Equatable {
        /// The RFC 7638 thumbprint of the proof's key.
        var jkt: String
        var jti: String
        var issuedAt: Int64
    }

    /// Verifies the `DPoP` header values of a request for `method` `url`. `accessToken` is the
    /// token the request presents at a resource (checked against `ath`).
    func verify(
        _ headers: [String], method: String, url: URL, accessToken: String? = nil, requireNonce: Bool
    ) throws(DPoPFailure) -> Proof {
        let proof: DPoPVerifiedProof
        do {
            proof = try DPoP.verify(
                headers, method: method, url: url, accessToken: accessToken, now: clock.now(), window: window)
        } catch {
            throw .invalid(error.reason)
        }
        if requireNonce {
            guard let nonce = proof.nonce, isValid(nonce: nonce) else { throw .useNonce }
        }
        return Proof(jkt: proof.jkt, jti: proof.jti, issuedAt: proof.issuedAt)
    }

    /// Records the proof's `jti` (per key); a second use is refused.
    func recordUse(_ proof: Proof, in database: any Database) async throws {
        let hash = sha256Hex("\(proof.jkt).\(proof.jti)")
        let expiresAt = (proof.issuedAt + Int64(window) * 2) * 1000
        let fresh = try await database.write { repositories in
            try await repositories.dpopProofs.insert(hash: hash, expiresAt: expiresAt)
        }
        guard fresh else { throw DPoPFailure.invalid("The DPoP proof was already used.") }
    }

    /// A fresh nonce.
    func nonce() -> String {
        let seconds = Int64(clock.now().timeIntervalSince1970)
        var time = seconds.bigEndian
        let timeBytes = withUnsafeBytes(of: &time) { Array($0) }
        let mac = Array(HMAC<SHA256>.authenticationCode(for: timeBytes, using: nonceKey)).prefix(16)
        return Base64URL.encode(timeBytes + mac)
    }

    func isValid(nonce: String) -> Bool {
        guard let bytes = Base64URL.decode(nonce).map(Array.init), bytes.count == 24 else { return false }
        let timeBytes = Array(bytes[0..<8])
        let expected = Array(HMAC<SHA256>.authenticationCode(for: timeBytes, using: nonceKey)).prefix(16)
        guard ConstantTime.equals(Array(bytes[8...]), Array(expected)) else { return false }
        let seconds = timeBytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let age = clock.now().timeIntervalSince1970 - Double(seconds)
        return age >= -window && age <= nonceLifetime
    }
}
