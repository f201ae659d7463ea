import Foundation

/// Which URLs a hosted page may point at. Everything the page model carries is escaped by the
/// templates, but an escaped `javascript:` URL still runs when followed: links and form actions
/// are checked here first, and what fails is left out of the page.
enum HostedURLPolicy {
    /// Whether `value` is an absolute `https` URL with a host (a theme's logo or stylesheet).
    static func isHTTPS(_ value: String) -> Bool {
        guard let components = URLComponents(string: value),
            components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty
        else { return false }
        return !value.contains(where: \.isWhitespace)
    }

    /// Whether `value` is a path on this server (`/login/action`, `/login?x=1`): it starts with one
    /// `/` (not `//`, which names another host, nor `/\`, which browsers read the same way).
    static func isLocalPath(_ value: String) -> Bool {
        guard value.hasPrefix("/"), !value.hasPrefix("//"), !value.hasPrefix("/\\") else { return false }
        return !value.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    /// Whether a link may point at `value`: a local path, a fragment, an `https` or `http` URL or a
    /// `mailto:` address; never a `javascript:` or `data:` URL.
    static func isLinkTarget(_ value: String) -> Bool {
        if isLocalPath(value) || isHTTPS(value) { return true }
        if value.hasPrefix("#") { return !value.contains(where: \.isWhitespace) }
        let lowered = value.lowercased()
        if lowered.hasPrefix("mailto:") { return !value.contains(where: \.isNewline) }
        guard lowered.hasPrefix("http://"), let components = URLComponents(string: value),
            let host = components.host, !host.isEmpty
        else { return false }
        return !value.contains(where: \.isWhitespace)
    }

    /// Whether a form may post to `value`: a local path or an `https` URL.
    static func isFormAction(_ value: String) -> Bool {
        isLocalPath(value) || isHTTPS(value)
    }
}
