import Foundation
import KeywayJOSE
import KeywayProtocol

/// The client metadata of a registration request (RFC 7591 §2, OpenID Connect Dynamic Client
/// Registration 1.0 §2), validated. Members this server does not use (`contacts`, …) are ignored
/// and not registered.
struct ClientMetadata: Sendable {
    var name: String?
    var authMethod: ClientAuthMethod
    var assertionAlgorithm: String?
    var grantTypes: [String]
    var jwks: JSONWebKeySet?
    /// `id_token_signed_response_alg`: `RS256` unless the client asks for `ES256` (OpenID Connect
    /// Dynamic Client Registration 1.0 §2 makes RS256 the default).
    var idTokenAlgorithm: SigningAlgorithm = .rs256
    /// `redirect_uris`, validated by the rules of ``RedirectURI`` (private-use schemes for
    /// clients without a secret, `token_endpoint_auth_method` `none`), each once, sorted. Required
    /// with the `authorization_code` grant: RFC 7591 §2 has clients of redirect-based flows
    /// register their redirect URIs, and OpenID Connect Dynamic Client Registration 1.0 §2 makes
    /// the member REQUIRED.
    var redirectURIs: [String] = []
    /// `post_logout_redirect_uris` (OpenID Connect RP-Initiated Logout 1.0 §3.1), by the same rules.
    var postLogoutRedirectURIs: [String] = []
    /// `scope` (RFC 7591 §2): the scopes the client may ask for, each one the server supports;
    /// `nil` when the request names none (every supported scope).
    var allowedScopes: Set<String>?
    /// `logo_uri`, `client_uri`, `policy_uri` and `tos_uri`, shown on the consent page.
    var links = ClientLinks()

    /// The `scope` the registration answer echoes: the registered scopes, or every supported one.
    var scope: String {
        Scopes.supported.filter { allowedScopes?.contains($0) ?? true }.joined(separator: " ")
    }

    /// An `invalid_client_metadata` answer (RFC 7591 §3.2.2).
    /// Sentences of the consent page a client's name could imitate to change what the page
    /// appears to say (compared case-insensitively).
    static let consentPageSentences = [
        "is asking for", "access your account", "signed in as", "don't allow", "do not allow", "can access:",
    ]

    /// A name shown on the consent page is one line of plain text: no control or format
    /// characters (line breaks, tabs, bidirectional overrides, zero-width joiners) and none of the
    /// page's own sentences.
    static func checkDisplayName(_ name: String) throws {
        let hidden = name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: true
            default: false
            }
        }
        guard !hidden else {
            throw invalid("client_name must be one line of visible text (no line breaks, tabs or invisible characters).")
        }
        let lowered = name.lowercased()
        if let sentence = consentPageSentences.first(where: { lowered.contains($0) }) {
            throw invalid("client_name must not contain \"\(sentence)\", which the consent page says itself.")
        }
    }

    static func invalid(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_client_metadata", errorDescription: description))
    }

    /// An `invalid_redirect_uri` answer (RFC 7591 §3.2.2).
    static func invalidRedirectURI(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_redirect_uri", errorDescription: description))
    }

    init(json data: Data) throws {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw Self.invalid("The body must be a JSON object of client metadata.")
        }
        func string(_ name: String) throws -> String? {
            guard let value = members[name], value != .null else { return nil }
            guard let string = value.stringValue else { throw Self.invalid("\(name) must be a string.") }
            return string
        }
        func strings(_ name: String) throws -> [String]? {
            guard let value = members[name], value != .null else { return nil }
            guard case .array(let items) = value, let strings = Optional(items.compactMap(\.stringValue)),
                strings.count == items.count
            else { throw Self.invalid("\(name) must be an array of strings.") }
            return strings
        }

        if let name = try string("client_name") {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 100 else {
                throw Self.invalid("client_name must be 1 to 100 characters.")
            }
            try Self.checkDisplayName(trimmed)
            self.name = trimmed
        }

        let method = try string("token_endpoint_auth_method") ?? ClientAuthMethod.clientSecretBasic.rawValue
        guard let authMethod = ClientAuthMethod(rawValue: method) else {
            throw Self.invalid(
                "token_endpoint_auth_method \(method) is not supported; use one of \(ClientAuthMethod.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self.authMethod = authMethod

        if let algorithm = try string("token_endpoint_auth_signing_alg") {
            guard authMethod.assertionAlgorithms.contains(algorithm) else {
                throw Self.invalid("token_endpoint_auth_signing_alg \(algorithm) does not fit \(method).")
            }
            assertionAlgorithm = algorithm
        }

        let grantTypes = try strings("grant_types") ?? ["authorization_code"]
        guard !grantTypes.isEmpty, Set(grantTypes).count == grantTypes.count else {
            throw Self.invalid("grant_types must list each grant type once.")
        }
        for grantType in grantTypes where !TokenGrants.grantTypes.contains(grantType) {
            throw Self.invalid("The grant type \(grantType) is not supported.")
        }
        self.grantTypes = grantTypes
        if let responseTypes = try strings("response_types") {
            let expected = grantTypes.contains("authorization_code") ? ["code"] : []
            guard responseTypes == expected else {
                throw Self.invalid(
                    expected.isEmpty
                        ? "response_types must be empty without the authorization_code grant."
                        : "response_types must be [\"code\"] with the authorization_code grant.")
            }
        }

        if let algorithm = try string("id_token_signed_response_alg") {
            guard let supported = SigningAlgorithm(rawValue: algorithm) else {
                throw Self.invalid(
                    "id_token_signed_response_alg \(algorithm) is not supported; use \(SigningAlgorithm.names.joined(separator: " or ")).")
            }
            idTokenAlgorithm = supported
        }

        let publicClient = authMethod == .none
        if let uris = try strings("redirect_uris") {
            switch RedirectURI.validate(uris, publicClient: publicClient) {
            case .success(let valid): redirectURIs = valid
            case .failure(let error): throw Self.invalidRedirectURI("redirect_uris: \(error.description)")
            }
        }
        if grantTypes.contains("authorization_code"), redirectURIs.isEmpty {
            throw Self.invalidRedirectURI(
                "redirect_uris is required with the authorization_code grant: register where authorization responses go.")
        }
        if let uris = try strings("post_logout_redirect_uris") {
            switch RedirectURI.validate(uris, publicClient: publicClient) {
            case .success(let valid): postLogoutRedirectURIs = valid
            case .failure(let error): throw Self.invalid("post_logout_redirect_uris: \(error.description)")
            }
        }
        if let scope = try string("scope") {
            let scopes = scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !scopes.isEmpty else {
                throw Self.invalid("scope must name at least one scope (space-separated), or be left out for every scope.")
            }
            let unknown = scopes.filter { !Scopes.supported.contains($0) }
            guard unknown.isEmpty else {
                throw Self.invalid(
                    "scope names \(unknown.joined(separator: ", ")), which the server does not support; it supports \(Scopes.supported.joined(separator: " ")).")
            }
            allowedScopes = Set(scopes)
        }

        links = try ClientLinks.parse(string)

        if members["jwks_uri"] != nil {
            throw Self.invalid("jwks_uri is not supported; send the keys as jwks.")
        }
        if let value = members["jwks"], value != .null {
            guard let data = try? JSONEncoder().encode(value),
                let keys = try? JSONDecoder().decode(JSONWebKeySet.self, from: data)
            else { throw Self.invalid("jwks must be a JSON Web Key Set.") }
            guard authMethod == .privateKeyJWT else {
                throw Self.invalid("jwks is only registered with private_key_jwt.")
            }
            let problems = JWKSignatures.problems(in: keys)
            guard problems.isEmpty else { throw Self.invalid("jwks is invalid: " + problems.joined(separator: " ")) }
            jwks = keys
        } else if authMethod == .privateKeyJWT {
            throw Self.invalid("private_key_jwt needs the client's public keys as jwks.")
        }
    }
}
