import AsyncHTTPClient
import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import NIOCore

/// Redeems a provider's authorization code at its token endpoint (with the PKCE verifier and the
/// client's credentials: `client_secret_basic`, or `client_secret_post` where the provider lists
/// only that) and returns the ID token.
enum UpstreamTokenClient {
    static let maximumBodySize = 64 * 1024

    /// Why the exchange failed, as a sentence for the user and the logs.
    struct Failure: Error, Sendable, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The client secret to present: the stored one, or for Apple an ES256 JWT signed with the
    /// team's key (`iss` team ID, `sub` client ID, `aud` the issuer, five minutes).
    static func clientSecret(
        for provider: IdentityProviderRecord, secrets: SecretBox, now: Int64
    ) throws -> String {
        let purpose = IdentityProviderRecord.secretPurpose(projectId: provider.projectId, id: provider.id)
        if let sealed = provider.sealedClientSecret {
            return String(decoding: try secrets.open(sealed, purpose: purpose), as: UTF8.self)
        }
        guard let sealedKey = provider.sealedAppleKey else { throw Failure("The provider has no client secret.") }
        let appleKey = try JSONDecoder().decode(AppleClientKey.self, from: Data(try secrets.open(sealedKey, purpose: purpose)))
        let key = try P256.Signing.PrivateKey(pemRepresentation: appleKey.privateKeyPEM)
        let seconds = now / 1000
        let claims: JSONValue = .object([
            "iss": .string(appleKey.teamId), "sub": .string(provider.clientId), "aud": .string(provider.issuer),
            "iat": .number(Double(seconds)), "exp": .number(Double(seconds + 300)),
        ])
        return try JWSSigner.signES256(
            payload: Data(claims.serialized().utf8), header: ["kid": .string(appleKey.keyId)], key: key)
    }

    /// Redeems `code`; the answer's `id_token`.
    static func redeem(
        code: String, verifier: String, redirectURI: String, provider: IdentityProviderRecord, clientSecret: String,
        metadata: ProviderMetadata
    ) async throws -> String {
        var form: [(String, String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier),
        ]
        var request = HTTPClientRequest(url: metadata.tokenEndpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if metadata.usesSecretPost {
            form.append(("client_id", provider.clientId))
            form.append(("client_secret", clientSecret))
        } else {
            let credentials = "\(formEncode(provider.clientId)):\(formEncode(clientSecret))"
            request.headers.add(name: "Authorization", value: "Basic \(Data(credentials.utf8).base64EncodedString())")
        }
        let body = form.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        let response: HTTPClientResponse
        let answer: ByteBuffer
        do {
            response = try await HTTPClient.shared.execute(request, timeout: JWKSFetcher.timeout)
            answer = try await response.body.collect(upTo: maximumBodySize)
        } catch {
            throw Failure("The provider could not be reached to finish the sign-in.")
        }
        guard case .object(let json)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: answer)) else {
            throw Failure("The provider's token endpoint answered HTTP \(response.status.code) without a JSON body.")
        }
        guard response.status == .ok else {
            let error = json["error"]?.stringValue ?? "HTTP \(response.status.code)"
            throw Failure("The provider refused to finish the sign-in (\(error)).")
        }
        guard let idToken = json["id_token"]?.stringValue else {
            throw Failure("The provider's token response has no ID token.")
        }
        return idToken
    }

    /// `application/x-www-form-urlencoded` encoding of one name or value (RFC 6749 Appendix B).
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
