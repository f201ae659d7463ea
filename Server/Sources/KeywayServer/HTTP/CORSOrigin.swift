import Foundation

/// Validation of the origins an application registers for cross-origin access.
///
/// An origin is registered as browsers send it in the `Origin` header (RFC 6454 §6.1):
/// `scheme://host[:port]`, lowercase, without a path, query, fragment or user information, and
/// without the scheme's default port. `https` is required, but for loopback hosts (`localhost`,
/// `127.0.0.1`, `[::1]`), which may use `http` for development. Wildcards and `null` are refused.
enum CORSOrigin {
    /// The most origins one application may register.
    static let maximumCount = 20

    /// The origins, validated and sorted, each once; the reason as a sentence when one is refused.
    static func validate(_ origins: [String]) -> Result<[String], CORSOriginError> {
        guard origins.count <= maximumCount else {
            return .failure(CORSOriginError(description: "Register at most \(maximumCount) origins."))
        }
        for origin in origins {
            if let problem = problem(with: origin) {
                return .failure(CORSOriginError(description: "\(origin.debugDescription): \(problem)"))
            }
        }
        return .success(Array(Set(origins)).sorted())
    }

    /// What is wrong with `origin`, or `nil` when it is a valid origin.
    static func problem(with origin: String) -> String? {
        guard origin.count <= 300, origin.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        else { return "an origin is printable ASCII (an internationalized host in its xn-- form), 300 characters at most." }
        guard origin == origin.lowercased() else { return "write the origin in lowercase, as browsers send it." }
        guard let components = URLComponents(string: origin), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return "an origin is scheme://host[:port]." }
        guard components.user == nil, components.password == nil, components.path.isEmpty,
            components.query == nil, components.fragment == nil
        else { return "an origin has no path (not even a trailing /), query, fragment or user information." }
        guard !host.contains("*") else { return "wildcards are not supported; register each origin." }
        let loopback = ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)
        switch scheme {
        case "https": break
        case "http" where loopback: break
        case "http": return "use https (http is accepted for localhost, 127.0.0.1 and [::1] only)."
        default: return "the scheme must be https (or http for a loopback host)."
        }
        if let port = components.port {
            guard (1...65535).contains(port) else { return "the port must be 1 to 65535." }
            guard port != (scheme == "https" ? 443 : 80) else {
                return "leave out the default port \(port): browsers send the origin without it."
            }
        }
        return nil
    }
}

/// Why an origin cannot be registered.
struct CORSOriginError: Error, CustomStringConvertible {
    let description: String
}
