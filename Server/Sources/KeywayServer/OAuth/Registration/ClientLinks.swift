import Foundation

/// The logo and pages a dynamically registered client names (OpenID Connect Dynamic Client
/// Registration 1.0 §2: `logo_uri`, `client_uri`, `policy_uri`, `tos_uri`), shown on the consent
/// page. Each is an absolute `https` URL with a host, without credentials, whitespace or control
/// characters, of at most ``maximumLength`` characters; anything else is refused at registration.
struct ClientLinks: Codable, Sendable, Equatable {
    /// `logo_uri`: the client's logo.
    var logo: String?
    /// `client_uri`: the client's home page.
    var home: String?
    /// `policy_uri`: how the client uses the user's data.
    var policy: String?
    /// `tos_uri`: the client's terms of service.
    var terms: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case logo = "logo_uri"
        case home = "client_uri"
        case policy = "policy_uri"
        case terms = "tos_uri"
    }

    /// The longest accepted URL, in characters.
    static let maximumLength = 2000

    /// Whether none is given.
    var isEmpty: Bool { logo == nil && home == nil && policy == nil && terms == nil }

    /// Why `value` cannot be the client's `member`, or `nil` when it can.
    static func problem(with value: String, member: String) -> String? {
        guard value.count <= maximumLength else { return "\(member) must be at most \(maximumLength) characters." }
        guard !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
            let components = URLComponents(string: value), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else { return "\(member) must be an absolute https URL." }
        guard components.user == nil, components.password == nil else {
            return "\(member) must not carry credentials (user:password@)."
        }
        return nil
    }

    /// The links of `members` (a registration request's metadata), validated.
    ///
    /// - Throws: A description of the first member that is not a string or not a valid URL.
    static func parse(_ string: (String) throws -> String?) throws -> ClientLinks {
        var links = ClientLinks()
        for key in CodingKeys.allCases {
            guard let value = try string(key.rawValue) else { continue }
            if let problem = problem(with: value, member: key.rawValue) { throw ClientMetadata.invalid(problem) }
            switch key {
            case .logo: links.logo = value
            case .home: links.home = value
            case .policy: links.policy = value
            case .terms: links.terms = value
            }
        }
        return links
    }
}
