import Foundation

/// The rules of redirect URIs: what an application may register, and whether a request's URI is
/// one it registered.
///
/// A URI is absolute, without a fragment or user information, at most 2,000 characters of
/// printable ASCII, and one of: `https` with a host; `http` on a loopback address (`127.0.0.1`,
/// `[::1]`, `localhost`); or, for public (native) clients, a private-use scheme in reverse-domain
/// form (`com.example.app:/callback`, RFC 8252 §7.1). A request's URI matches a registered one
/// exactly, character for character — but a loopback IP literal (`http://127.0.0.1`,
/// `http://[::1]`) matches with any port (RFC 8252 §7.3).
enum RedirectURI {
    /// The most URIs of one kind an application may register.
    static let maximumCount = 20

    /// What is wrong with `uri` as a redirect URI of a client of `clientType`, or `nil`.
    static func problem(with uri: String, publicClient: Bool) -> String? {
        guard !uri.isEmpty, uri.utf8.count <= 2000,
            uri.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else { return "a redirect URI is printable ASCII without spaces, 2,000 characters at most." }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return "a redirect URI is an absolute URI (scheme:…)."
        }
        guard components.fragment == nil, !uri.contains("#") else { return "a redirect URI has no fragment (#…)." }
        guard components.user == nil, components.password == nil else {
            return "a redirect URI has no user information (user:password@)."
        }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else { return "an https redirect URI names a host." }
            guard !host.contains("*") else { return "wildcards are not supported; register each URI." }
        case "http":
            guard let host = components.host, LoopbackHost.contains(host) else {
                return "use https (http is accepted for loopback redirects: 127.0.0.1, [::1] and localhost)."
            }
        default:
            guard publicClient else {
                return "a private-use scheme (\(scheme):) is for native (public) clients; use https."
            }
            guard scheme.contains("."), !["javascript", "data", "file", "vbscript"].contains(scheme) else {
                return "a private-use scheme is in reverse-domain form (com.example.app:/callback)."
            }
        }
        return nil
    }

    /// The URIs, validated, each once and sorted; the first refusal as a sentence.
    static func validate(_ uris: [String], publicClient: Bool) -> Result<[String], RedirectURIError> {
        guard uris.count <= maximumCount else {
            return .failure(RedirectURIError(description: "Register at most \(maximumCount) redirect URIs."))
        }
        for uri in uris {
            if let problem = problem(with: uri, publicClient: publicClient) {
                return .failure(RedirectURIError(description: "\(uri.debugDescription): \(problem)"))
            }
        }
        return .success(Array(Set(uris)).sorted())
    }

    /// Whether `requested` is one of `registered`: exact, but for the port of a loopback IP literal.
    static func matches(_ requested: String, registered: [String]) -> Bool {
        if registered.contains(requested) { return true }
        guard let request = loopbackWithoutPort(requested) else { return false }
        return registered.contains { loopbackWithoutPort($0) == request }
    }

    /// `http://127.0.0.1:PORT/rest` or `http://[::1]:PORT/rest` without its port; `nil` for any
    /// other URI. Only IP literals: `localhost` may resolve elsewhere (RFC 8252 §8.3).
    private static func loopbackWithoutPort(_ uri: String) -> String? {
        for prefix in ["http://127.0.0.1", "http://[::1]"] where uri.hasPrefix(prefix) {
            var rest = uri.dropFirst(prefix.count)
            if rest.first == ":" {
                let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, digits.count <= 5 else { return nil }
                rest = rest.dropFirst(1 + digits.count)
            }
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" else { return nil }
            return prefix + rest
        }
        return nil
    }
}

/// Why a redirect URI cannot be registered.
struct RedirectURIError: Error, CustomStringConvertible {
    let description: String
}
