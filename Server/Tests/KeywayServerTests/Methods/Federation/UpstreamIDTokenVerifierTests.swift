import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

/// The checks of a provider's ID token: signature, key lookup, `iss` (Google's variants), `aud`,
/// `azp`, `exp`, `iat`, `nonce`, and the claim mapping.
@Suite("Upstream ID tokens")
struct UpstreamIDTokenVerifierTests {
    let key = P256.Signing.PrivateKey()
    let now: Int64 = 1_800_000_000_000
    var seconds: Double { Double(now / 1000) }

    func provider(_ preset: IdentityProviderPreset = .generic, issuer: String = "https://idp.example") -> IdentityProviderRecord {
        IdentityProviderRecord(
            projectId: "prj_1", id: "idp", preset: preset, issuer: issuer, clientId: "client-1", sealedClientSecret: "x",
            sealedAppleKey: nil, scopes: ["openid"], claims: ClaimMapping(), label: "IdP", iconURL: nil, createdAt: 0,
            updatedAt: 0)
    }

    func token(_ overrides: [String: JSONValue?] = [:], kid: String? = "k1", signer: P256.Signing.PrivateKey? = nil)
        throws -> String
    {
        var claims: [String: JSONValue] = [
            "iss": .string("https://idp.example"), "aud": .string("client-1"), "sub": .string("user-42"),
            "exp": .number(seconds + 300), "iat": .number(seconds), "nonce": .string("n-1"),
            "email": .string("Ada@Example.com"), "email_verified": .bool(true), "name": .string("Ada"),
        ]
        for (name, value) in overrides { claims[name] = value }
        var header: [String: JSONValue] = [:]
        if let kid { header["kid"] = .string(kid) }
        return try JWSSigner.signES256(
            payload: Data(JSONValue.object(claims).serialized().utf8), header: header, key: signer ?? key)
    }

    func jwk(kid: String?) -> JSONWebKey {
        var jwk = ECJWK.publicJWK(for: key.publicKey)
        jwk.kid = kid
        return jwk
    }

    @Test func acceptsAValidTokenAndMapsItsClaims() throws {
        let identity = try UpstreamIDTokenVerifier.verify(
            try token(), provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
        #expect(identity == UpstreamIdentity(
            issuer: "https://idp.example", subject: "user-42", email: "ada@example.com", emailVerified: true,
            name: "Ada", picture: nil))
    }

    @Test func aKeySetOfOneKeyWithoutKidWorks() throws {
        let identity = try UpstreamIDTokenVerifier.verify(
            try token(), provider: provider(), keys: [jwk(kid: nil)], nonce: "n-1", now: now)
        #expect(identity.subject == "user-42")
        #expect(throws: UpstreamIDTokenVerifier.Refusal.self) {
            try UpstreamIDTokenVerifier.verify(try token(), provider: provider(), keys: [jwk(kid: "other")], nonce: "n-1", now: now)
        }
    }

    @Test func googleAcceptsBothSpellingsOfItsIssuer() throws {
        let google = provider(.google, issuer: "https://accounts.google.com")
        for iss in ["https://accounts.google.com", "accounts.google.com"] {
            let identity = try UpstreamIDTokenVerifier.verify(
                try token(["iss": .string(iss)]), provider: google, keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
            #expect(identity.issuer == "https://accounts.google.com")
        }
        // Only the configured issuer's two spellings, nothing else.
        for iss in ["https://accounts.google.com/", "http://accounts.google.com", "accounts.google.com.evil.example"] {
            #expect(throws: UpstreamIDTokenVerifier.Refusal("The provider's ID token names another issuer.")) {
                try UpstreamIDTokenVerifier.verify(
                    try token(["iss": .string(iss)]), provider: google, keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
            }
        }
        #expect(IdentityProviderPreset.google.acceptedIssuers("https://accounts.google.com")
            == ["https://accounts.google.com", "accounts.google.com"])
        #expect(IdentityProviderPreset.generic.acceptedIssuers("https://accounts.google.com") == ["https://accounts.google.com"])
        // A generic provider accepts only its own spelling.
        #expect(throws: UpstreamIDTokenVerifier.Refusal("The provider's ID token names another issuer.")) {
            try UpstreamIDTokenVerifier.verify(
                try token(["iss": .string("idp.example")]), provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1",
                now: now)
        }
    }

    @Test func appleSendsEmailVerifiedAsAString() throws {
        let identity = try UpstreamIDTokenVerifier.verify(
            try token(["email_verified": .string("true"), "email": .string("x1y2@privaterelay.appleid.com")]),
            provider: provider(.apple), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
        #expect(identity.emailVerified && identity.email == "x1y2@privaterelay.appleid.com")
    }

    @Test func unverifiedEmailIsNotVerified() throws {
        let identity = try UpstreamIDTokenVerifier.verify(
            try token(["email_verified": .bool(false)]), provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
        #expect(identity.email == "ada@example.com" && !identity.emailVerified)
        let missing = try UpstreamIDTokenVerifier.verify(
            try token(["email_verified": nil]), provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
        #expect(!missing.emailVerified)
    }

    @Test func refusesEveryBrokenClaim() throws {
        let cases: [(String, String)] = [
            (try token(["aud": .string("other")]), "issued for another client"),
            (try token(["aud": .array([.string("client-1"), .string("other")])]), "another party"),
            (try token(["exp": .number(seconds - 120)]), "expired"),
            (try token(["iat": .number(seconds + 120)]), "in the future (iat)"),
            (try token(["iat": nil]), "no issue time (iat)"),
            (try token(["nonce": .string("n-2")]), "nonce"),
            (try token(["nonce": nil]), "nonce"),
            (try token(["sub": .string("")]), "subject"),
            (try token(signer: P256.Signing.PrivateKey()), "does not verify"),
            ("not-a-jwt", "not a signed JWT"),
        ]
        for (jwt, says) in cases {
            do {
                _ = try UpstreamIDTokenVerifier.verify(jwt, provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
                Issue.record("accepted a token that should say \(says)")
            } catch let refusal as UpstreamIDTokenVerifier.Refusal {
                #expect(refusal.message.contains(says), "\(refusal.message)")
            }
        }
        // Several audiences with the client as azp are fine.
        let withAzp = try token(["aud": .array([.string("client-1"), .string("other")]), "azp": .string("client-1")])
        #expect(try UpstreamIDTokenVerifier.verify(withAzp, provider: provider(), keys: [jwk(kid: "k1")], nonce: "n-1", now: now)
            .subject == "user-42")
    }

    @Test func federationMethodIDs() {
        #expect(FederationMethodID.providerId("federation:google") == "google")
        #expect(FederationMethodID.providerId("federation:G") == nil)
        #expect(FederationMethodID.providerId("emailOtp") == nil)
        #expect(FederationMethodID.methodId(providerId: "apple") == "federation:apple")
    }
}
