/// An operation a client may perform on the current step.
public struct Action: Codable, Sendable, Equatable {
    /// A stable name (`submitCode`, `resend`, `cancel`).
    public var name: String
    /// Where to send it: an absolute path on the server (`/v1/flows/…/code`).
    public var href: String
    /// The HTTP method.
    public var method: String
    /// A label to show on a button.
    public var label: String?
    /// The fields the request body carries, as a JSON object of `name: value`.
    public var fields: [Field]

    public init(name: String, href: String, method: String, label: String? = nil, fields: [Field] = []) {
        self.name = name
        self.href = href
        self.method = method
        self.label = label
        self.fields = fields
    }
}

/// One typed input of an action.
public struct Field: Codable, Sendable, Equatable {
    /// The JSON key in the request body.
    public var name: String
    /// How to render and validate it.
    public var type: FieldType
    /// Whether the request fails without it.
    public var required: Bool
    /// A label to show.
    public var label: String?
    /// Placeholder text.
    public var placeholder: String?
    /// A hint for input methods (`one-time-code`, `email`).
    public var autocomplete: String?
    /// Minimum length in characters.
    public var minLength: Int?
    /// Maximum length in characters.
    public var maxLength: Int?
    /// A regular expression the value must match entirely.
    public var pattern: String?
    /// Choices of a `select` field.
    public var options: [FieldOption]?
    /// A pre-filled value.
    public var value: String?

    public init(
        name: String, type: FieldType, required: Bool = true, label: String? = nil,
        placeholder: String? = nil, autocomplete: String? = nil, minLength: Int? = nil,
        maxLength: Int? = nil, pattern: String? = nil, options: [FieldOption]? = nil, value: String? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.label = label
        self.placeholder = placeholder
        self.autocomplete = autocomplete
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.options = options
        self.value = value
    }
}

/// The kind of a field. Unknown kinds decode without failing; render them as text.
public struct FieldType: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let text = FieldType(rawValue: "text")
    public static let email = FieldType(rawValue: "email")
    public static let phone = FieldType(rawValue: "phone")
    public static let password = FieldType(rawValue: "password")
    public static let select = FieldType(rawValue: "select")
    public static let checkbox = FieldType(rawValue: "checkbox")
    public static let hidden = FieldType(rawValue: "hidden")
    /// A one-time code: digits only, usually autofilled from a message.
    public static let code = FieldType(rawValue: "code")

}

/// One choice of a `select` field.
public struct FieldOption: Codable, Sendable, Equatable {
    public var value: String
    public var label: String

    public init(value: String, label: String) {
        self.value = value
        self.label = label
    }
}

/// A related resource.
public struct Link: Codable, Sendable, Equatable {
    /// The relation (`self`, `help`).
    public var rel: String
    /// An absolute path on the server or an absolute URL.
    public var href: String
    /// A title to show.
    public var title: String?

    public init(rel: String, href: String, title: String? = nil) {
        self.rel = rel
        self.href = href
        self.title = title
    }
}

/// A message to show next to a step.
public struct Message: Codable, Sendable, Equatable {
    /// `info`, `warning` or `error`.
    public var level: String
    /// A stable identifier (`codeSent`).
    public var code: String?
    /// The sentence to show.
    public var text: String

    public init(level: String, code: String? = nil, text: String) {
        self.level = level
        self.code = code
        self.text = text
    }
}
