import Foundation
import KeywayProtocol

/// Checks profile schemas when they are saved and profile updates against their schema.
enum ProfileValidation {
    /// The most fields a schema may define.
    static let maximumFields = 50

    /// A schema's problems, or an empty list.
    static func problems(in schema: [ProfileFieldDefinition]) -> [InvalidField] {
        var problems: [InvalidField] = []
        if schema.count > maximumFields {
            problems.append(.init(name: "fields", reason: "A schema holds at most \(maximumFields) fields."))
        }
        var seen = Set<String>()
        for field in schema {
            if !isValidName(field.name) {
                problems.append(
                    .init(
                        name: field.name,
                        reason: "A field name is a lowercase letter followed by up to 63 letters, digits or underscores."))
            }
            if !seen.insert(field.name).inserted {
                problems.append(.init(name: field.name, reason: "The field is defined twice."))
            }
            if field.encrypted && field.type != .string {
                problems.append(.init(name: field.name, reason: "An encrypted field has type string."))
            }
            if !(1...100_000).contains(field.maxLength) {
                problems.append(.init(name: field.name, reason: "maxLength must be between 1 and 100000."))
            }
        }
        return problems
    }

    /// Applies a merge patch to `current` and returns the new profile, or the invalid fields.
    static func apply(
        _ patch: [String: ProfileValue?], to current: [String: ProfileValue], schema: [ProfileFieldDefinition]
    ) -> Result<[String: ProfileValue], FlowProblem> {
        let fields = Dictionary(schema.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [InvalidField] = []
        var next = current.filter { fields[$0.key] != nil }
        for (name, value) in patch.sorted(by: { $0.key < $1.key }) {
            guard let field = fields[name] else {
                problems.append(.init(name: "profile.\(name)", reason: "The project's profile has no field \(name)."))
                continue
            }
            guard let value else {
                next[name] = nil
                continue
            }
            if let reason = reason(value, violates: field) {
                problems.append(.init(name: "profile.\(name)", reason: reason))
            } else {
                next[name] = value
            }
        }
        for field in schema where field.required && next[field.name] == nil {
            problems.append(.init(name: "profile.\(field.name)", reason: "\(field.name) is required."))
        }
        return problems.isEmpty ? .success(next) : .failure(.invalidRequest(problems))
    }

    private static func reason(_ value: ProfileValue, violates field: ProfileFieldDefinition) -> String? {
        switch (field.type, value) {
        case (.string, .string(let text)):
            if text.count > field.maxLength { return "At most \(field.maxLength) characters." }
            if field.encrypted && !isCompactJWE(text) {
                return "An encrypted field takes a compact JWE (five base64url parts); encrypt it on the client."
            }
            return nil
        case (.number, .number(let number)):
            return number.isFinite ? nil : "The number must be finite."
        case (.boolean, .bool):
            return nil
        default:
            return "The value must be a \(field.type.rawValue)."
        }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
        }
    }

    /// `header.encryptedKey.iv.ciphertext.tag`, each base64url (the encrypted key may be empty).
    static func isCompactJWE(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else { return false }
        let base64url = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return parts.enumerated().allSatisfy { index, part in
            (index == 1 || !part.isEmpty) && part.allSatisfy(base64url.contains)
        }
    }
}
