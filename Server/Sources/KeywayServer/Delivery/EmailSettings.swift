import Foundation

/// Who a project's email says it is from, when it is sent through the server's SMTP relay: the
/// `From` header and the envelope sender (`MAIL FROM`).
public struct EmailSender: Codable, Sendable, Equatable {
    /// The address: `local@domain`, ASCII, at most 254 characters.
    public var address: String
    /// The display name (`"Acme" <no-reply@acme.example>`), at most 100 characters, no control
    /// characters; may be non-ASCII (it is then encoded per RFC 2047).
    public var name: String?

    public init(address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }

    /// Whether `address` is one this server sends from: one `@`, a local part of 1…64 and a
    /// dotted domain, at most 254 printable ASCII characters, none of them a space or one of
    /// `<>()[],;:\"`.
    public static func isValidAddress(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard (3...254).contains(bytes.count),
            bytes.allSatisfy({ (0x21...0x7E).contains($0) && !Array("<>()[],;:\\\"".utf8).contains($0) })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].utf8.count) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.utf8.count <= 63 }
    }

    /// Whether `name` can be a display name: 1…100 characters, none of them a control character.
    public static func isValidName(_ name: String) -> Bool {
        (1...100).contains(name.count) && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Parses `Name <address>` or a bare `address`; `nil` when either part is invalid.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            var name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            guard Self.isValidAddress(address), name.isEmpty || Self.isValidName(name) else { return nil }
            self.init(address: address, name: name.isEmpty ? nil : name)
        } else {
            guard Self.isValidAddress(trimmed) else { return nil }
            self.init(address: trimmed)
        }
    }
}

/// The subject and body of one kind of email, with `{{name}}` placeholders.
public struct EmailTemplate: Codable, Sendable, Equatable {
    /// The subject: one line (no control characters), at most 200 characters as written.
    public var subject: String
    /// The body, plain text, at most 10,000 characters.
    public var body: String

    public init(subject: String, body: String) {
        self.subject = subject
        self.body = body
    }

    /// The names of the placeholders `text` uses (`{{code}}`, `{{ minutes }}`), in order, each once.
    static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if !names.contains(name) { names.append(name) }
            rest = rest[close.upperBound...]
        }
        return names
    }

    /// `text` with each `{{name}}` whose name `values` has replaced by its value; other
    /// placeholders stay as written.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result += rest[..<open.lowerBound]
            result += values[name] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// The subject and body with the placeholders filled in. The subject is kept to one line:
    /// a line break or other control character a value brings is replaced by a space.
    func render(_ values: [String: String]) -> (subject: String, body: String) {
        let subject = String(
            String.UnicodeScalarView(
                Self.fill(subject, values).unicodeScalars.map {
                    $0.properties.generalCategory == .control ? " " : $0
                }))
        return (subject, Self.fill(body, values))
    }
}

/// An application's own texts for the email it sends. A kind without a template uses the
/// server's text. Used whatever carries the email (a webhook, the SMTP relay, the delivery
/// command, the dev outbox); SMS keeps the server's text.
public struct EmailTemplates: Codable, Sendable, Equatable {
    /// The message carrying a one-time code. Placeholders: `{{code}}` (required in the body),
    /// `{{minutes}}` (how long the code is valid), `{{application}}` (the application's name).
    public var code: EmailTemplate?
    /// The notice sent instead of a code to an address without an account. Placeholder:
    /// `{{application}}`.
    public var noAccount: EmailTemplate?
    /// The message of a sign-in link, carrying the link and a code. Placeholders: `{{link}}`
    /// (required in the body), `{{code}}`, `{{minutes}}` (how long both are valid),
    /// `{{application}}`. Without it the server's own text goes out.
    public var signInLink: EmailTemplate?

    public init(code: EmailTemplate? = nil, noAccount: EmailTemplate? = nil, signInLink: EmailTemplate? = nil) {
        self.code = code
        self.noAccount = noAccount
        self.signInLink = signInLink
    }

    /// The placeholders the code template may use.
    static let codePlaceholders = ["code", "minutes", "application"]
    /// The placeholders the no-account template may use.
    static let noAccountPlaceholders = ["application"]
    /// The placeholders the sign-in link template may use.
    static let signInLinkPlaceholders = ["link", "code", "minutes", "application"]
    /// The longest subject, in characters.
    static let maximumSubjectLength = 200
    /// The longest body, in characters.
    static let maximumBodyLength = 10_000
}
