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

    /// Creates an action with the given values.
    ///
    /// - Parameters:
    ///   - name: A stable name.
    ///   - href: Where to send it.
    ///   - method: The HTTP method.
    ///   - label: A label to show on a button.
    ///   - fields: The fields the request body carries.
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

    /// Creates a field with the given values.
    ///
    /// - Parameters:
    ///   - name: The JSON key in the request body.
    ///   - type: How to render and validate it.
    ///   - required: Whether the request fails without it.
    ///   - label: A label to show.
    ///   - placeholder: Placeholder text.
    ///   - autocomplete: A hint for input methods.
    ///   - minLength: Minimum length in characters.
    ///   - maxLength: Maximum length in characters.
    ///   - pattern: A regular expression the value must match entirely.
    ///   - options: Choices of a `select` field.
    ///   - value: A pre-filled value.
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
    /// The kind as the wire spells it (`email`).
    public let rawValue: String
    /// Creates a kind from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The kind as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Free text.
    public static let text = FieldType(rawValue: "text")
    /// An email address.
    public static let email = FieldType(rawValue: "email")
    /// A phone number.
    public static let phone = FieldType(rawValue: "phone")
    /// A password: render it masked.
    public static let password = FieldType(rawValue: "password")
    /// One of the field's ``Field/options``.
    public static let select = FieldType(rawValue: "select")
    /// A yes-or-no box; its value is `true` or `false`.
    public static let checkbox = FieldType(rawValue: "checkbox")
    /// A value not shown, sent back as its ``Field/value``.
    public static let hidden = FieldType(rawValue: "hidden")
    /// A one-time code: digits only, usually autofilled from a message.
    public static let code = FieldType(rawValue: "code")

}

/// One choice of a `select` field.
public struct FieldOption: Codable, Sendable, Equatable {
    /// The value sent when this choice is made.
    public var value: String
    /// The choice's label.
    public var label: String

    /// Creates a choice with the given values.
    ///
    /// - Parameters:
    ///   - value: The value sent when this choice is made.
    ///   - label: The choice's label.
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

    /// Creates a link with the given values.
    ///
    /// - Parameters:
    ///   - rel: The relation.
    ///   - href: An absolute path on the server or an absolute URL.
    ///   - title: A title to show.
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

    /// Creates a message with the given values.
    ///
    /// - Parameters:
    ///   - level: `info`, `warning` or `error`.
    ///   - code: A stable identifier, if any.
    ///   - text: The sentence to show.
    public init(level: String, code: String? = nil, text: String) {
        self.level = level
        self.code = code
        self.text = text
    }
}
