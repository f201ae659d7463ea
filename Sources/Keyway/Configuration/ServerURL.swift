import Foundation

/// The server's root URL, normalized from what the app passed.
///
/// Accepted forms: the host root (`https://auth.example.com`), an existing `/v1` URL
/// (`https://auth.example.com/v1`), either with or without a trailing slash, and the same under a
/// path prefix (`https://example.com/auth/v1/`). The root drops the trailing slash and a final
/// `/v1`; the SDK appends nothing but the protocol's own paths.
package struct ServerURL: Sendable, Equatable, CustomStringConvertible {
    /// The root: `scheme://host[:port][/prefix]`, no trailing slash.
    package let root: URL

    /// Normalizes `url` to the server's root.
    ///
    /// - Parameter url: The URL the app passed: the host root or its `/v1`, with or without a
    ///   trailing slash, under a path prefix or not.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` when `url` is not http or https, has no
    ///   host, has a query, a fragment or credentials, or cannot be normalized.
    package init(_ url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw KeywayError.invalidConfiguration("The base URL must use http or https.") }
        guard let host = components.host, !host.isEmpty else {
            throw KeywayError.invalidConfiguration("The base URL has no host.")
        }
        guard components.query == nil, components.fragment == nil else {
            throw KeywayError.invalidConfiguration("The base URL must not have a query or fragment.")
        }
        guard components.user == nil, components.password == nil else {
            throw KeywayError.invalidConfiguration("The base URL must not carry credentials.")
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/v1") { path.removeLast(3) }
        while path.hasSuffix("/") { path.removeLast() }
        var rootComponents = URLComponents()
        rootComponents.scheme = scheme
        rootComponents.host = host
        rootComponents.port = components.port
        rootComponents.percentEncodedPath = path
        guard let root = rootComponents.url else {
            throw KeywayError.invalidConfiguration("The base URL cannot be normalized.")
        }
        self.root = root
    }

    /// The root as a string, e.g. `https://auth.example.com`.
    package var description: String { root.absoluteString }

    /// Whether `value` can stand as one segment of a path given to ``appending(path:)``: 1 to 128
    /// ASCII letters, digits, `_` and `-` (the server's IDs: flows, devices, approvals).
    static func isPathSegment(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 128
            && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
    }

    /// `root` + `path`, where `path` starts with `/` (`/v1/flows`).
    ///
    /// - Parameter path: The path below the root, starting with `/`. Characters a URL cannot hold
    ///   as they are (spaces, non-ASCII) are percent-encoded.
    /// - Returns: The URL; the root itself if even the encoded path makes no URL.
    package func appending(path: String) -> URL {
        if let url = URL(string: root.absoluteString + path) { return url }
        // Characters a URL cannot hold as they are (spaces, non-ASCII) are percent-encoded
        // rather than trapping; every string encodes to a valid path.
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        return URL(string: root.absoluteString + encoded) ?? root
    }

    /// Resolves a hypermedia `href`: an absolute path is taken below the root; an absolute URL is
    /// accepted only on the root's own origin, so a flow token never travels elsewhere.
    ///
    /// - Parameter href: The `href` of an action or a link.
    /// - Returns: The URL to send the request to, or `nil` for a relative path or a URL on another
    ///   origin (scheme, host or port).
    package func resolve(href: String) -> URL? {
        if href.hasPrefix("/") {
            return URL(string: root.absoluteString + href)
        }
        guard let url = URL(string: href), url.scheme?.lowercased() == root.scheme?.lowercased(),
            url.host?.lowercased() == root.host?.lowercased(), url.port == root.port
        else { return nil }
        return url
    }
}
