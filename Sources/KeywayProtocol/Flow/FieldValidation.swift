import Foundation

/// The outcome of checking an action's field values locally: what would be sent, and the fields
/// that fail their rules.
public struct FormValidation: Sendable, Equatable {
    /// The request body: one entry per field of the action, normalized (hidden fields carry their
    /// own value, checkboxes `"true"` or `"false"`, empty optional fields `""`).
    public var values: [String: String]
    /// One entry per field that fails its rules, in the action's field order.
    public var invalidFields: [InvalidField]

    /// Whether every field passed.
    public var isValid: Bool { invalidFields.isEmpty }

    /// A validation outcome.
    ///
    /// - Parameters:
    ///   - values: The request body, by field name.
    ///   - invalidFields: The fields that fail their rules.
    public init(values: [String: String], invalidFields: [InvalidField]) {
        self.values = values
        self.invalidFields = invalidFields
    }
}

extension Field {
    /// The value this field sends for `input` (`nil` when the user left it untouched): a hidden
    /// field always sends its own ``value``; a checkbox sends `"true"` or `"false"` (it reads
    /// `true`/`false`, `yes`/`no`, `y`/`n`, `on`/`off`, `1`/`0`; untouched, its pre-filled value or
    /// `"false"`); any other field sends `input`, else its pre-filled value, else `""`. An
    /// unreadable checkbox answer is returned unchanged, and ``validate(_:)`` reports it.
    ///
    /// - Parameter input: The user's answer, or `nil` when the field was left untouched.
    /// - Returns: The value the request carries for this field.
    public func submittedValue(for input: String?) -> String {
        if type == .hidden { return value ?? "" }
        if type == .checkbox {
            guard let raw = input ?? value else { return "false" }
            return Self.checkboxValue(raw) ?? raw
        }
        return input ?? value ?? ""
    }

    /// Checks `input` (as ``submittedValue(for:)`` normalizes it) against the field's rules:
    /// `required`, a ticked required checkbox, a `select` value among its options, `minLength`,
    /// `maxLength` and `pattern` (a regular expression the whole value must match). Returns the
    /// first rule broken, with a sentence for the user, or `nil`. Hidden fields always pass.
    ///
    /// - Parameter input: The user's answer, or `nil` when the field was left untouched.
    /// - Returns: The field's name with the reason it fails, or `nil` when it passes.
    public func validate(_ input: String?) -> InvalidField? {
        if type == .hidden { return nil }
        let value = submittedValue(for: input)
        if type == .checkbox {
            guard value == "true" || value == "false" else { return invalid("Answer yes or no.") }
            if required && value == "false" { return invalid("This box must be ticked to continue.") }
            return nil
        }
        if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return required ? invalid("This field is required.") : nil
        }
        if type == .select, let options, !options.isEmpty, !options.contains(where: { $0.value == value }) {
            return invalid("Choose one of: \(options.map(\.label).joined(separator: ", ")).")
        }
        if let minLength, value.count < minLength {
            return invalid("Enter at least \(minLength) characters.")
        }
        if let maxLength, value.count > maxLength {
            return invalid("Enter at most \(maxLength) characters.")
        }
        if let pattern, !Self.matches(value, pattern: pattern) {
            return invalid("This value is not in the expected format.")
        }
        return nil
    }

    private func invalid(_ reason: String) -> InvalidField {
        InvalidField(name: name, reason: reason)
    }

    static func checkboxValue(_ raw: String) -> String? {
        switch raw.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "y", "on", "1": "true"
        case "false", "no", "n", "off", "0", "": "false"
        default: nil
        }
    }

    /// Whether the whole of `value` matches `pattern`. A pattern this platform cannot compile is
    /// left to the server.
    static func matches(_ value: String, pattern: String) -> Bool {
        // Anchored around a group, as the server checks it: the whole value must be one match
        // of the whole pattern (`a|ab` accepts `ab`, which the first match alone, `a`, would not).
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return true }
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        return expression.firstMatch(in: value, options: [], range: range) != nil
    }
}

extension Action {
    /// Checks `values` (by field name) against every field of the action and builds the body the
    /// action would send. Names that are not fields of the action are ignored.
    ///
    /// - Parameter values: The user's answers, by field name.
    /// - Returns: The body the action would send and every field that fails.
    public func validate(_ values: [String: String]) -> FormValidation {
        var body: [String: String] = [:]
        var invalid: [InvalidField] = []
        for field in fields {
            body[field.name] = field.submittedValue(for: values[field.name])
            if let problem = field.validate(values[field.name]) { invalid.append(problem) }
        }
        return FormValidation(values: body, invalidFields: invalid)
    }
}
