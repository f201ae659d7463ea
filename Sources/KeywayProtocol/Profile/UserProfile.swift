/// A value of a profile field: a string, a number or a boolean. Encrypted fields are strings
/// holding a compact JWE the server stores without reading.
public enum ProfileValue: Codable, Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)

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
    public enum FieldType: String, Codable, Sendable, Equatable {
        case string, number, boolean
    }

    /// `[a-z][A-Za-z0-9_]{0,63}`.
    public var name: String
    public var type: FieldType
    /// Whether every saved profile must hold the field.
    public var required: Bool
    /// Whether the value is encrypted by the client: the server accepts only a compact JWE string
    /// and never reads it. Encrypted fields have type `string`.
    public var encrypted: Bool
    /// The longest accepted string, in characters.
    public var maxLength: Int

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
    public var subject: String
    /// The email address; `nil` for a user known by phone number only.
    public var email: String?
    public var emailVerified: Bool
    public var profile: [String: ProfileValue]
    /// The project's schema, so a client can render the fields.
    public var schema: [ProfileFieldDefinition]

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
    public var profile: [String: ProfileValue?]

    public init(profile: [String: ProfileValue?]) {
        self.profile = profile
    }

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
