import KeywayProtocol

/// The claims about a user that a token's scopes release (OpenID Connect Core §5.4), chosen here
/// once for both the ID token and the UserInfo answer.
///
/// - `email`: `email` and `email_verified`, when the account has an address;
/// - `phone`: `phone_number` and `phone_number_verified`, when it has a verified number — and with
///   `email` too for an account known only by its number, which sign-ins always gave them;
/// - `profile`: the standard profile claims (``UserInfo/profileClaimNames``) that the project's
///   profile schema defines as plain strings and the user's profile holds. They are UserInfo's
///   only: with a code flow the ID token carries none (OpenID Connect Core §5.4).
struct ReleasedClaims: Equatable, Sendable {
    var email: String?
    var emailVerified: Bool?
    var phoneNumber: String?
    var profile: [String: String] = [:]

    init(scopes: Set<String>, email: String?, emailVerified: Bool, verifiedPhone: String?) {
        if let email, scopes.contains("email") {
            self.email = email
            self.emailVerified = emailVerified
        }
        if let verifiedPhone, scopes.contains("phone") || (scopes.contains("email") && email == nil) {
            phoneNumber = verifiedPhone
        }
    }

    init(scopes: Set<String>, user: UserRecord) {
        self.init(scopes: scopes, email: user.email, emailVerified: user.emailVerified, verifiedPhone: user.verifiedPhone)
    }

    /// Whether `scopes` release profile claims, so that the profile is worth reading.
    static func releasesProfile(_ scopes: Set<String>) -> Bool { scopes.contains("profile") }

    /// Adds the profile claims `scopes` release from `profile`, kept by the rules of `schema`: a
    /// field whose name is a standard claim's, of type string and not encrypted (the server
    /// cannot read an encrypted one).
    mutating func addProfile(_ profile: [String: ProfileValue], schema: [ProfileFieldDefinition], scopes: Set<String>) {
        guard Self.releasesProfile(scopes) else { return }
        for field in schema where field.type == .string && !field.encrypted && UserInfo.profileClaimNames.contains(field.name) {
            if case .string(let value)? = profile[field.name] { self.profile[field.name] = value }
        }
    }
}
