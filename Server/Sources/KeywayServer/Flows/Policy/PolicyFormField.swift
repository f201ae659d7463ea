import KeywayProtocol

/// One field of the sign-up form an application asks new users to fill in.
public struct PolicyFormField: Codable, Sendable, Equatable {
    /// The kind of input a field takes.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case text, email, phone, password, select, checkbox, hidden
    }

    /// The field's name: a letter followed by letters, digits or `_`, at most 64 characters;
    /// unique within the form.
    public var name: String
    /// The kind of input.
    public var kind: Kind
    /// The label shown next to the input. Required for every kind but ``Kind/hidden``.
    public var label: String?
    /// A hint shown inside an empty input.
    public var placeholder: String?
    /// Whether the user must fill the field in.
    public var required: Bool
    /// The choices of a ``Kind/select`` field (at least one, no duplicates); only for selects.
    public var options: [String]?
    /// A regular expression the whole value must match.
    public var pattern: String?
    /// The longest value accepted, in characters (1…10,000).
    public var maxLength: Int?
    /// The value a `hidden` field always sends (and a pre-filled value of other kinds).
    public var value: String?

    public init(
        name: String, kind: Kind, label: String? = nil, placeholder: String? = nil, required: Bool = false,
        options: [String]? = nil, pattern: String? = nil, maxLength: Int? = nil, value: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.label = label
        self.placeholder = placeholder
        self.required = required
        self.options = options
        self.pattern = pattern
        self.maxLength = maxLength
        self.value = value
    }

    private enum CodingKeys: String, CodingKey {
        case name, kind, label, placeholder, required, options, pattern, maxLength, value
    }

    /// Decodes a field; `required` defaults to `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(Kind.self, forKey: .kind)
        label = try container.decodeIfPresent(String.self, forKey: .label)
        placeholder = try container.decodeIfPresent(String.self, forKey: .placeholder)
        required = try container.decodeIfPresent(Bool.self, forKey: .required) ?? false
        options = try container.decodeIfPresent([String].self, forKey: .options)
        pattern = try container.decodeIfPresent(String.self, forKey: .pattern)
        maxLength = try container.decodeIfPresent(Int.self, forKey: .maxLength)
        value = try container.decodeIfPresent(String.self, forKey: .value)
    }

    /// The field as a step's action declares it.
    var field: Field {
        Field(
            name: name, type: FieldType(rawValue: kind.rawValue), required: required, label: label,
            placeholder: placeholder, maxLength: maxLength, pattern: pattern,
            options: options.map { $0.map { FieldOption(value: $0, label: $0) } }, value: value)
    }
}
