import KeywayProtocol

/// The scopes the server supports and what each releases.
enum Scopes {
    /// Every scope the server knows: OpenID Connect's `openid`, `profile`, `email` and `phone`,
    /// and `offline_access` for a refresh token.
    static let supported: [String] = ["openid", "profile", "email", "phone", "offline_access"]

    /// The claims the ID token and UserInfo may carry, as discovery lists them.
    static let claims: [String] = [
        "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid", "at_hash",
        "email", "email_verified", "phone_number", "phone_number_verified",
    ] + UserInfo.profileClaimNames

    /// The scope of a request that names none: a sign-in's tokens, as before scopes were asked for.
    static let defaultScope = "openid email offline_access"

    /// The scopes `application` may ask for.
    static func allowed(for application: ApplicationRecord) -> Set<String> {
        application.allowedScopes ?? Set(supported)
    }

    /// Parses a request's `scope` (space-separated, RFC 6749 §3.3): the scopes in a stable order,
    /// or the unknown or disallowed ones.
    static func parse(_ scope: String?, for application: ApplicationRecord) -> Result<[String], ScopeRefusal> {
        guard let scope, !scope.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .success(defaultScope.split(separator: " ").map(String.init).filter(allowed(for: application).contains))
        }
        let requested = scope.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard requested.count <= 20, scope.utf8.count <= 1000,
            requested.allSatisfy({ $0.unicodeScalars.allSatisfy { $0.value == 0x21 || (0x23...0x5B).contains($0.value) || (0x5D...0x7E).contains($0.value) } })
        else { return .failure(ScopeRefusal(description: "The scope is malformed (RFC 6749 §3.3).")) }
        let allowed = allowed(for: application)
        let refused = requested.filter { !allowed.contains($0) }
        guard refused.isEmpty else {
            let unknown = refused.filter { !supported.contains($0) }
            return .failure(
                ScopeRefusal(
                    description: unknown.isEmpty
                        ? "This client may not ask for \(refused.joined(separator: ", "))."
                        : "Unknown scope \(unknown.joined(separator: ", ")); supported: \(supported.joined(separator: " "))."))
        }
        var seen = Set<String>()
        return .success(requested.filter { seen.insert($0).inserted })
    }
}

/// Why a requested scope was refused (`invalid_scope`).
struct ScopeRefusal: Error, CustomStringConvertible {
    let description: String
}
