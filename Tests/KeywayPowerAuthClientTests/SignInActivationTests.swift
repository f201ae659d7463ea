import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@testable import Keyway
import KeywayProtocol

@Suite("Activation with the Keyway sign-in")
struct SignInActivationTests {
    /// A session holding `accessToken` for user `usr_1`.
    private func session(_ keyway: KeywayClient, accessToken: String, type: String) async throws -> KeywaySession {
        let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
        let now = Date()
        let claims = IDTokenClaims(
            issuer: "https://peer.example", subject: "usr_1", audience: ["cfg_peer"], expiresAt: now.addingTimeInterval(3600),
            issuedAt: now, authTime: now, authenticationMethods: ["otp"], email: nil, emailVerified: nil, sessionID: nil)
        let response = TokenResponse(
            accessToken: Sensitive(accessToken), tokenType: type, expiresIn: 3600, idToken: nil, refreshToken: nil, scope: nil)
        try await session.save(TokenSet(response: response, idToken: claims, accessTokenExpiresAt: now.addingTimeInterval(3600)))
        return session
    }

    private static func jwt(_ payload: [String: Any]) throws -> String {
        func segment(_ object: [String: Any]) throws -> String {
            try JSONSerialization.data(withJSONObject: object).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return try segment(["alg": "ES256", "typ": "at+jwt"]) + "." + segment(payload) + ".c2ln"
    }

    private static func claims(of jwt: String) throws -> [String: Any] {
        var part = String(jwt.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func nobodySignedInIsRefusedBeforeAnyRequest() async throws {
        let fixture = try Fixture()
        let keyway = try KeywayClient(configID: "cfg_peer", baseURL: fixture.peer.baseURL, options: KeywayOptions(transport: NoNetwork()))
        let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
        let error = await #expect(throws: ActivationError.self) { try await fixture.activation.create(signedInWith: session, keyway: keyway) }
        #expect(error?.code == "sign_in_required")
        #expect(await fixture.peer.paths.isEmpty)
    }

    @Test func aBearerTokenIsTheCustomCredential() async throws {
        let fixture = try Fixture()
        let keyway = try KeywayClient(configID: "cfg_peer", baseURL: fixture.peer.baseURL, options: KeywayOptions(transport: NoNetwork()))
        let token = try Self.jwt(["sub": "usr_1"])
        let pending = try await fixture.activation.create(
            signedInWith: try await session(keyway, accessToken: token, type: "Bearer"), keyway: keyway, name: "Laptop")
        #expect(await fixture.peer.activationRequests.last?.type == "CUSTOM")
        #expect(await fixture.peer.activationRequests.last?.identityAttributes == ["accessToken": token])
        #expect(await fixture.peer.lastActivationHeaders["DPoP"] == nil)
        #expect(pending.fingerprint.count == 8)
    }

    @Test func aDPoPBoundTokenTravelsWithAProofOfTheActivationRequest() async throws {
        let fixture = try Fixture()
        let key = P256.Signing.PrivateKey()
        let keyway = try KeywayClient(
            configID: "cfg_peer", baseURL: fixture.peer.baseURL, options: KeywayOptions(transport: NoNetwork(), dpopKey: key))
        let token = try Self.jwt(["sub": "usr_1", "cnf": ["jkt": "thumbprint"]])
        _ = try await fixture.activation.create(signedInWith: try await session(keyway, accessToken: token, type: "DPoP"), keyway: keyway)
        let proof = try #require(await fixture.peer.lastActivationHeaders["DPoP"])
        let claims = try Self.claims(of: proof)
        #expect(claims["htm"] as? String == "POST")
        #expect(claims["htu"] as? String == "https://peer.example/pa/v3/activation/create")
        #expect(claims["ath"] is String)
    }
}
