import Crypto
import Foundation
import KeywayProtocol

/// A DPoP proof that passed the checks of RFC 9449 §4.3 that need no server state.
public struct DPoPVerifiedProof: Sendable, Equatable {
    /// The RFC 7638 thumbprint of the proof's key (compare with the token's `cnf.jkt`).
    public var jkt: String
    /// The proof's unique ID: check it has not been seen before.
    public var jti: String
    /// `iat`, in seconds since 1970.
    public var issuedAt: Int64
    /// The `nonce` claim, if any (checking it is the caller's business).
    public var nonce: String?
}

/// Why a DPoP proof was refused; `reason` is a sentence for the client.
public struct DPoPProofError: Error, Equatable, Sendable {
    /// Why the proof was refused, as a sentence for the client.
    public let reason: String
    /// Creates an error with the given reason.
    ///
    /// - Parameter reason: Why the proof was refused, as a sentence for the client.
    public init(_ reason: String) { self.reason = reason }
}

extension DPoP {
    /// Verifies the `DPoP` header values of a request for `method` `url`: exactly one proof, a
    /// compact JWS with `typ: dpop+jwt`, `alg: ES256`, a public EC P-256 `jwk` that verifies the
    /// signature, a `jti`, `htm` and `htu` matching the request, `iat` within `window` seconds of
    /// `now`, and, when `accessToken` is given, `ath` matching it. Replay (`jti`) and nonce checks
    /// are left to the caller, which holds the state they need.
    ///
    /// - Parameters:
    ///   - headers: Every value of the request's `DPoP` header.
    ///   - method: The request's HTTP method.
    ///   - url: The request's URL, as the server received it.
    ///   - accessToken: The access token the request carries, or `nil` for a token request.
    ///   - now: The server's time.
    ///   - window: How far `iat` may be from `now`, in seconds.
    /// - Returns: The proof's key thumbprint, `jti`, `iat` and `nonce`.
    /// - Throws: ``DPoPProofError``, whose ``DPoPProofError/reason`` names the first check that
    ///   failed.
    public static func verify(
        _ headers: [String], method: String, url: URL, accessToken: String? = nil, now: Date,
        window: TimeInterval = 60
    ) throws(DPoPProofError) -> DPoPVerifiedProof {
        guard headers.count == 1, let compact = headers.first else {
            throw DPoPProofError(headers.isEmpty ? "A DPoP proof is required." : "Send exactly one DPoP header.")
        }
        guard compact.utf8.count <= 8192, let jws = try? CompactJWS(compact) else {
            throw DPoPProofError("The DPoP proof is not a compact JWS.")
        }
        guard jws.type == type else { throw DPoPProofError("The DPoP proof's typ must be dpop+jwt.") }
        guard jws.algorithm == "ES256" else { throw DPoPProofError("The DPoP proof must be signed with ES256.") }
        guard case .object(let jwkMembers)? = jws.header["jwk"] else {
            throw DPoPProofError("The DPoP proof's header has no jwk.")
        }
        guard jwkMembers["d"] == nil else {
            throw DPoPProofError("The DPoP proof's jwk must not contain a private key.")
        }
        let jwk = JSONWebKey(
            kty: jwkMembers["kty"]?.stringValue ?? "", crv: jwkMembers["crv"]?.stringValue,
            x: jwkMembers["x"]?.stringValue, y: jwkMembers["y"]?.stringValue)
        guard let key = try? ECJWK.publicKey(from: jwk), let x = jwk.x, let y = jwk.y else {
            throw DPoPProofError("The DPoP proof's jwk is not an EC P-256 public key.")
        }
        guard (try? jws.verifyES256(with: key)) != nil else {
            throw DPoPProofError("The DPoP proof's signature is invalid.")
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload) else {
            throw DPoPProofError("The DPoP proof's claims are not a JSON object.")
        }
        guard let jti = claims["jti"]?.stringValue, (1...256).contains(jti.count) else {
            throw DPoPProofError("The DPoP proof needs a jti of 1 to 256 characters.")
        }
        guard claims["htm"]?.stringValue == method.uppercased() else {
            throw DPoPProofError("The DPoP proof's htm does not match the request method.")
        }
        guard let htu = claims["htu"]?.stringValue, let htuURL = URL(string: htu), targetURI(htuURL) == targetURI(url)
        else { throw DPoPProofError("The DPoP proof's htu does not match the request URL.") }
        guard let iat = claims["iat"]?.numericDate, abs(Double(iat) - now.timeIntervalSince1970) <= window else {
            throw DPoPProofError("The DPoP proof's iat is missing or too far from the server's time.")
        }
        if let accessToken {
            guard let ath = claims["ath"]?.stringValue, ConstantTime.equals(ath, accessTokenHash(accessToken)) else {
                throw DPoPProofError("The DPoP proof's ath does not match the access token.")
            }
        }
        return DPoPVerifiedProof(
            jkt: ECJWK.thumbprint(crv: "P-256", x: x, y: y), jti: jti, issuedAt: iat,
            nonce: claims["nonce"]?.stringValue)
    }
}
