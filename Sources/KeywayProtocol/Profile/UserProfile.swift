/// A value of a profile field: a string, a number or a boolean. Encrypted fields are strings
/// holding a compact JWE the server stores without reading.
public enum ProfileValue: Codable, Sendable, Equatable {
    /// A string; an encrypted field's compact JWE too.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)

    /// Decodes a JSON boolean, number or string, in that order of preference.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is none of the three (an object, an array, `null`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the value as a bare JSON string, number or boolean.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error when the value cannot be encoded (a number that is not
    ///   finite, for `JSONEncoder`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }
}

/// One field of a project's profile schema.
public struct ProfileFieldDefinition: Codable, Sendable, Equatable {
    /// The type of a field's values.
    public enum FieldType: String, Codable, Sendable, Equatable {
        /// `string`, `number` or `boolean`: the ``ProfileValue`` case the field's values take.
        case string, number, boolean
    }

    /// `[a-z][A-Za-z0-9_]{0,63}`.
    public var name: String
    /// The type of the field's values.
    public var type: FieldType
    /// Whether every saved profile must hold the field.
    public var required: Bool
    /// Whether the value is encrypted by the client: the server accepts only a compact JWE string
    /// and never reads it. Encrypted fields have type `string`.
    public var encrypted: Bool
    /// The longest accepted string, in characters.
    public var maxLength: Int

    /// Creates a field definition with the given values.
    ///
    /// - Parameters:
    ///   - name: The field's name, `[a-z][A-Za-z0-9_]{0,63}`.
    ///   - type: The type of the field's values.
    ///   - required: Whether every saved profile must hold the field.
    ///   - encrypted: Whether the value is encrypted by the client.
    ///   - maxLength: The longest accepted string, in characters.
    public init(name: String, type: FieldType, required: Bool = false, encrypted: Bool = false, maxLength: Int = 1000) {
        self.name = name
        self.type = type
        self.required = required
        self.encrypted = encrypted
        self.maxLength = maxLength
    }

    private enum CodingKeys: String, CodingKey { case name, type, required, encrypted, maxLength }

    /// Decodes a field; only `name` and `type` are required, the others take the defaults of
    /// ``init(name:type:required:encrypted:maxLength:)``, and unknown members are ignored.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `name` or `type` is missing, or a member is of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name), type: try container.decode(FieldType.self, forKey: .type),
            required: try container.decodeIfPresent(Bool.self, forKey: .required) ?? false,
            encrypted: try container.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false,
            maxLength: try container.decodeIfPresent(Int.self, forKey: .maxLength) ?? 1000)
    }
}

/// `GET /v1/me`: the signed-in user and their profile.
public struct UserProfileDocument: Codable, Sendable, Equatable {
    /// The user ID, the `sub` of the user's tokens.
    public var subject: String
    /// The email address; `nil` for a user known by phone number only.
    public var email: String?
    /// Whether the email address was verified.
    public var emailVerified: Bool
    /// The profile's fields, by name; encrypted fields hold their compact JWE.
    public var profile: [String: ProfileValue]
    /// The project's schema, so a client can render the fields.
    public var schema: [ProfileFieldDefinition]

    /// Creates a user document with the given values.
    ///
    /// - Parameters:
    ///   - subject: The user ID.
    ///   - email: The email address, if the user has one.
    ///   - emailVerified: Whether the email address was verified.
    ///   - profile: The profile's fields, by name.
    ///   - schema: The project's profile schema.
    public init(
        subject: String, email: String?, emailVerified: Bool, profile: [String: ProfileValue],
        schema: [ProfileFieldDefinition]
    ) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.profile = profile
        self.schema = schema
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case email
        case emailVerified = "email_verified"
        case profile, schema
    }
}

/// `PATCH /v1/me`: fields to set, and fields to remove (`null`), as a JSON merge patch of the
/// profile (RFC 7396).
public struct UserProfileUpdate: Codable, Sendable, Equatable {
    /// The fields to set, by name; a `nil` value removes the field.
    public var profile: [String: ProfileValue?]

    /// Creates an update.
    ///
    /// - Parameter profile: The fields to set, by name; a `nil` value removes the field.
    public init(profile: [String: ProfileValue?]) {
        self.profile = profile
    }

    /// Encodes the update as `{"profile": {…}}`, a removed field as `null`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error when a value cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        var nested = container.nestedContainer(keyedBy: DynamicKey.self, forKey: DynamicKey("profile"))
        for (name, value) in profile {
            if let value {
                try nested.encode(value, forKey: DynamicKey(name))
            } else {
                try nested.encodeNil(forKey: DynamicKey(name))
            }
        }
    }

    /// Decodes `{"profile": {…}}`, keeping a `null` member as a removal.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when `profile` is missing or not an object, or a member is not a
    ///   string, number, boolean or `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DynamicKey.self)
        let nested = try container.nestedContainer(keyedBy: DynamicKey.self, forKey: DynamicKey("profile"))
        var profile: [String: ProfileValue?] = [:]
        for key in nested.allKeys {
            profile[key.stringValue] = try nested.decodeNil(forKey: key) ? .some(nil) : try nested.decode(ProfileValue.self, forKey: key)
        }
        self.profile = profile
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
