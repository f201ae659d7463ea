import Foundation
import KeywayProtocol

/// The sign-up form: the policy's profile fields plus, when the policy links terms of service, a
/// consent checkbox; and the checks of its answers, field by field.
enum SignupForm {
    /// The name of the consent checkbox.
    static let termsField = "acceptTerms"

    /// The form's fields, in order.
    static func fields(for policy: FlowPolicy) -> [Field] {
        var fields = policy.profileFields
        if let terms = policy.termsOfServiceURL {
            fields.append(
                Field(name: termsField, type: .checkbox, required: true, label: "I accept the terms of service (\(terms))"))
        }
        return fields
    }

    /// The answers to keep (hidden fields keep their value, the consent is not stored) and one
    /// problem per wrong field.
    static func check(_ values: [String: String], policy: FlowPolicy) -> ([String: String], [InvalidField]) {
        var answers: [String: String] = [:]
        var problems: [InvalidField] = []
        for field in fields(for: policy) {
            let raw = (field.type == .hidden ? field.value : values[field.name]) ?? ""
            let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = problem(field, value) {
                problems.append(InvalidField(name: field.name, reason: problem))
            } else if !value.isEmpty, field.name != termsField {
                answers[field.name] = field.type == .checkbox ? (isTrue(value) ? "true" : "false") : value
            }
        }
        let known = Set(fields(for: policy).map(\.name))
        for name in values.keys.sorted() where !known.contains(name) {
            problems.append(InvalidField(name: name, reason: "This form has no such field."))
        }
        return (answers, problems)
    }

    private static func isTrue(_ value: String) -> Bool {
        ["true", "1", "yes", "on"].contains(value.lowercased())
    }

    private static func problem(_ field: Field, _ value: String) -> String? {
        let label = field.label ?? field.name
        if field.type == .checkbox {
            if field.required, !isTrue(value) {
                return field.name == termsField ? "Accept the terms of service to continue." : "Check \(label) to continue."
            }
            if !value.isEmpty, !isTrue(value), !["false", "0", "no", "off"].contains(value.lowercased()) {
                return "Answer true or false."
            }
            return nil
        }
        if value.isEmpty { return field.required ? "Fill in \(label)." : nil }
        if let maxLength = field.maxLength, value.count > maxLength { return "Use at most \(maxLength) characters." }
        if let minLength = field.minLength, value.count < minLength { return "Use at least \(minLength) characters." }
        if value.count > 1000 { return "Use at most 1000 characters." }
        switch field.type {
        case .email where EmailAddress.normalize(value) == nil: return "Enter a valid email address."
        case .phone where PhoneNumber.normalize(value) == nil: return "Enter the number in international form (+…)."
        case .select where !(field.options ?? []).contains(where: { $0.value == value }): return "Choose one of the options."
        default: break
        }
        if let pattern = field.pattern, value.range(of: "^(?:\(pattern))$", options: .regularExpression) == nil {
            return "\(label) is not in the expected form."
        }
        return nil
    }
}
