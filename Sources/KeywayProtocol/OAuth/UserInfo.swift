/// The OpenID Connect UserInfo answer (OpenID Connect Core §5.3.2).
public struct UserInfo: Codable, Sendable, Equatable {
    /// The user ID, the same `sub` as in the ID token.
    public var subject: String
    /// The email address, when the access token's scope includes `email`.
    public var email: String?
    /// Whether the email address was verified.
    public var emailVerified: Bool?
    /// The verified phone number (E.164), when the access token's scope includes `phone` and the
    /// user has one.
    public var phoneNumber: String?
    /// Whether the phone number was verified: always `true` when one is given (Keyway keeps only
    /// verified numbers).
    public var phoneNumberVerified: Bool?
    /// Whether the user is a guest (`is_anonymous`): an account without an identifier that has
    /// not signed up yet. `false` once its sign-up completed; absent from servers without guests.
    public var isAnonymous: Bool?
    /// The standard profile claims (OpenID Connect Core §5.1: `name`, `given_name`, `locale`, …)
    /// the user's profile holds, by claim name, when the access token's scope includes `profile`.
    /// Keyway gives those of ``profileClaimNames`` that the project's profile schema defines as
    /// plain strings.
    public var profile: [String: String]

    /// The claims of the `profile` scope that are strings (OpenID Connect Core §5.4; `updated_at`
    /// is a number and not among them).
    public static let profileClaimNames: [String] = [
        "name", "family_name", "given_name", "middle_name", "nickname", "preferred_username", "profile", "picture",
        "website", "gender", "birthdate", "zoneinfo", "locale",
    ]

    /// Creates a UserInfo answer with the given values.
    ///
    /// - Parameters:
    ///   - subject: The user ID (`sub`).
    ///   - email: The email address, when the scope includes `email`.
    ///   - emailVerified: Whether the email address was verified.
    ///   - isAnonymous: Whether the user is a guest.
    ///   - phoneNumber: The verified phone number, when the scope includes `phone`.
    ///   - phoneNumberVerified: Whether the phone number was verified.
    ///   - profile: The standard profile claims, by claim name (see ``profileClaimNames``).
    public init(
        subject: String, email: String?, emailVerified: Bool?, isAnonymous: Bool? = nil, phoneNumber: String? = nil,
        phoneNumberVerified: Bool? = nil, profile: [String: String] = [:]
    ) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isAnonymous = isAnonymous
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumberVerified
        self.profile = profile
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case email
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
        case isAnonymous = "is_anonymous"
    }

    /// A profile claim's member name.
    private struct ClaimKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes an answer; of the profile claims, those of ``profileClaimNames`` that are strings
    /// are kept, and other members are ignored.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `sub` is missing or a known member has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decode(String.self, forKey: .subject)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        phoneNumberVerified = try container.decodeIfPresent(Bool.self, forKey: .phoneNumberVerified)
        isAnonymous = try container.decodeIfPresent(Bool.self, forKey: .isAnonymous)
        let claims = try decoder.container(keyedBy: ClaimKey.self)
        var profile: [String: String] = [:]
        for name in Self.profileClaimNames {
            if let value = try? claims.decodeIfPresent(String.self, forKey: ClaimKey(stringValue: name)) {
                profile[name] = value
            }
        }
        self.profile = profile
    }

    /// Encodes the answer as the UserInfo endpoint sends it: absent claims are left out, and each
    /// profile claim is a member of its own.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error.
    public func encode(to encoder: any Encoder) throws {
        // One container for every member: a second container of one encoder is not promised.
        var container = encoder.container(keyedBy: ClaimKey.self)
        func key(_ known: CodingKeys) -> ClaimKey { ClaimKey(stringValue: known.stringValue) }
        try container.encode(subject, forKey: key(.subject))
        try container.encodeIfPresent(email, forKey: key(.email))
        try container.encodeIfPresent(emailVerified, forKey: key(.emailVerified))
        try container.encodeIfPresent(phoneNumber, forKey: key(.phoneNumber))
        try container.encodeIfPresent(phoneNumberVerified, forKey: key(.phoneNumberVerified))
        try container.encodeIfPresent(isAnonymous, forKey: key(.isAnonymous))
        for name in Self.profileClaimNames {
            if let value = profile[name] { try container.encode(value, forKey: ClaimKey(stringValue: name)) }
        }
    }
}

/// The answer of the token introspection endpoint (RFC 7662 §2.2). Only `active` is present for a
/// token that is not active.
public struct IntrospectionResponse: Codable, Sendable, Equatable {
    /// Whether the token is active: issued by this server, not expired and not revoked.
    public var active: Bool
    /// The token's scope, space separated.
    public var scope: String?
    /// The client the token was issued to (`client_id`).
    public var clientID: String?
    /// The user the token was issued for (`sub`).
    public var subject: String?
    /// An access token's type (RFC 6749 §5.1): `Bearer`, or `DPoP` for a token bound to a key.
    /// Absent for a refresh token.
    public var tokenType: String?
    /// When the token expires (`exp`), in seconds since 1970.
    public var expiresAt: Int?
    /// When the token was issued (`iat`), in seconds since 1970.
    public var issuedAt: Int?
    /// The issuer (`iss`).
    public var issuer: String?
    /// The sign-in session the token belongs to (`sid`).
    public var sessionID: String?
    /// The token's unique ID (`jti`).
    public var tokenID: String?
    /// `cnf` (RFC 7800): the DPoP key thumbprint a bound token is tied to.
    public var confirmation: Confirmation?
    /// Whether the token's user is a guest now (`is_anonymous`): `false` once the guest signed
    /// up, even for a token issued before.
    public var isAnonymous: Bool?

    /// The `cnf` member of a bound token.
    public struct Confirmation: Codable, Sendable, Equatable {
        /// RFC 9449 §6.1: the JWK SHA-256 thumbprint.
        public var jkt: String

        /// Creates a confirmation of the given thumbprint.
        ///
        /// - Parameter jkt: The JWK SHA-256 thumbprint.
        public init(jkt: String) { self.jkt = jkt }
    }

    /// Creates an introspection answer with the given values.
    ///
    /// - Parameters:
    ///   - active: Whether the token is active.
    ///   - scope: The token's scope, space separated.
    ///   - clientID: The client the token was issued to.
    ///   - subject: The user the token was issued for.
    ///   - tokenType: `Bearer` or `DPoP` for an access token; `nil` for a refresh token.
    ///   - expiresAt: When the token expires, in seconds since 1970.
    ///   - issuedAt: When the token was issued, in seconds since 1970.
    ///   - issuer: The issuer.
    ///   - sessionID: The sign-in session the token belongs to.
    ///   - tokenID: The token's unique ID.
    ///   - confirmation: The DPoP key a bound token is tied to.
    ///   - isAnonymous: Whether the token's user is a guest.
    public init(
        active: Bool, scope: String? = nil, clientID: String? = nil, subject: String? = nil, tokenType: String? = nil,
        expiresAt: Int? = nil, issuedAt: Int? = nil, issuer: String? = nil, sessionID: String? = nil,
        tokenID: String? = nil, confirmation: Confirmation? = nil, isAnonymous: Bool? = nil
    ) {
        self.active = active
        self.scope = scope
        self.clientID = clientID
        self.subject = subject
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.issuer = issuer
        self.sessionID = sessionID
        self.tokenID = tokenID
        self.confirmation = confirmation
        self.isAnonymous = isAnonymous
    }

    /// The answer for any token that is unknown, expired, revoked or not the caller's to see.
    public static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope
        case clientID = "client_id"
        case subject = "sub"
        case tokenType = "token_type"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case issuer = "iss"
        case sessionID = "sid"
        case tokenID = "jti"
        case confirmation = "cnf"
        case isAnonymous = "is_anonymous"
    }
}
