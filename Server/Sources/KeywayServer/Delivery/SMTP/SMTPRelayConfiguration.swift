import Foundation
import KeywayProtocol
import NIOSSL

/// The SMTP relay email is sent through when a project has no email webhook: where it is, how
/// the connection is secured, the credentials, and the sender used when a project names none.
public struct SMTPRelayConfiguration: Sendable, CustomStringConvertible {
    /// How the connection to the relay is secured.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain SMTP upgraded with `STARTTLS` (RFC 3207) before anything else is sent; a relay
        /// that does not offer it is a permanent failure. Port 587 by default.
        case starttls
        /// TLS from the first byte ("implicit TLS", RFC 8314). Port 465 by default.
        case tls
        /// No encryption. Only to a loopback relay, unless ``SMTPRelayConfiguration/allowPlaintext``
        /// is set; never with credentials to another host. Port 25 by default.
        case none

        /// The port a relay of this kind listens on by default.
        public var defaultPort: Int {
            switch self {
            case .starttls: 587
            case .tls: 465
            case .none: 25
            }
        }
    }

    /// The relay's host name or IP address.
    public var host: String
    /// The relay's port.
    public var port: Int
    /// How the connection is secured.
    public var security: Security
    /// The user name for `AUTH` (RFC 4954); `nil`: no authentication.
    public var username: String?
    /// The password for `AUTH`. Never logged or shown.
    public var password: Sensitive<String>?
    /// The sender of projects whose policies name none (`delivery.emailSender`).
    public var sender: EmailSender
    /// PEM certificates the relay's certificate must chain to, instead of the system's trust
    /// store (a private CA, or a test's own certificate).
    public var trustRootsPEM: String?
    /// How long connecting, and then each reply, may take, in seconds (1…60). A whole attempt
    /// takes at most ``attemptLimit``.
    public var timeoutSeconds: Int = 15
    /// The name the server greets the relay with (`EHLO name`): a host name, or an address
    /// literal such as `[192.0.2.1]`.
    public var heloName: String
    /// Lets ``Security/none`` reach a relay that is not on loopback (without credentials).
    public var allowPlaintext = false

    /// The longest one attempt may take, whatever the timeout: shorter than the delivery
    /// worker's 60-second lease, so a message is never held by two attempts at once.
    public static let attemptLimit: Duration = .seconds(50)

    public init(
        host: String, port: Int? = nil, security: Security = .starttls, username: String? = nil,
        password: Sensitive<String>? = nil, sender: EmailSender, heloName: String? = nil
    ) {
        self.host = host
        self.port = port ?? security.defaultPort
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.heloName = heloName ?? Self.defaultHeloName
    }

    /// Settings from a URL, `smtp://[USER[:PASSWORD]@]HOST[:PORT]` or `smtps://…` (implicit TLS);
    /// the user name and password are percent-decoded. `security` overrides the scheme's (only
    /// `tls` goes with `smtps`); the port defaults to the security's.
    public init(url: String, security: Security? = nil, sender: EmailSender) throws(ConfigurationError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps", let host = components.host, !host.isEmpty
        else {
            throw ConfigurationError("The SMTP URL must be smtp://[USER[:PASSWORD]@]HOST[:PORT] or smtps://….")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil
        else { throw ConfigurationError("The SMTP URL must have no path, query or fragment.") }
        if scheme == "smtps", let security, security != .tls {
            throw ConfigurationError("An smtps:// URL uses implicit TLS: give --smtp-tls tls, or an smtp:// URL.")
        }
        let chosen = security ?? (scheme == "smtps" ? .tls : .starttls)
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(
            host: bareHost, port: components.port, security: chosen,
            username: components.percentEncodedUser.flatMap { $0.removingPercentEncoding },
            password: components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }.map { Sensitive($0) },
            sender: sender)
    }

    /// Refuses settings the server cannot send with, naming the setting.
    public func validate() throws(ConfigurationError) {
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) else {
            throw ConfigurationError("The SMTP relay's host is not a host name or an IP address.")
        }
        guard (1...65_535).contains(port) else { throw ConfigurationError("The SMTP relay's port must be 1 to 65535.") }
        guard (1...60).contains(timeoutSeconds) else {
            throw ConfigurationError("--smtp-timeout must be between 1 and 60 seconds.")
        }
        if (username == nil) != (password == nil) || username?.isEmpty == true {
            throw ConfigurationError("The SMTP relay needs both a user name and a password, or neither.")
        }
        for value in [username ?? "", password?.revealed ?? ""] where SMTPMessage.hasControlCharacter(value) {
            throw ConfigurationError("The SMTP user name and password must not contain control characters.")
        }
        if security == .none, !LoopbackHost.contains(host) {
            if username != nil {
                throw ConfigurationError(
                    "--smtp-tls none would send the SMTP password unencrypted to \(host): use starttls or tls (credentials go unencrypted only to a loopback relay).")
            }
            if !allowPlaintext {
                throw ConfigurationError(
                    "--smtp-tls none sends email unencrypted to \(host): use starttls or tls, or allow it with --smtp-allow-plaintext.")
            }
        }
        if allowPlaintext, security != .none {
            throw ConfigurationError("--smtp-allow-plaintext only applies with --smtp-tls none.")
        }
        guard EmailSender.isValidAddress(sender.address), sender.name.map(EmailSender.isValidName) ?? true else {
            throw ConfigurationError("--smtp-from must be an address (name@example.com) or Name <name@example.com>.")
        }
        guard Self.isValidHeloName(heloName) else {
            throw ConfigurationError("--smtp-helo-name must be a host name or an address literal such as [192.0.2.1].")
        }
        _ = try makeTLSContext()
    }

    /// The TLS context of the relay's connections: TLS 1.2 or later, the certificate checked
    /// against ``trustRootsPEM`` or the system's trust store, and its name against ``host``.
    func makeTLSContext() throws(ConfigurationError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        tls.certificateVerification = .fullVerification
        if let trustRootsPEM {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMBytes(Array(trustRootsPEM.utf8))
            } catch {
                throw ConfigurationError("The SMTP CA file is not a PEM certificate.")
            }
            guard !certificates.isEmpty else { throw ConfigurationError("The SMTP CA file holds no PEM certificate.") }
            tls.trustRoots = .certificates(certificates)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw ConfigurationError("The TLS context of the SMTP relay cannot be made: \(String(describing: type(of: error))).")
        }
    }

    /// The settings as they may be shown: the password masked.
    public var description: String {
        let user = username.map { "\($0):********@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "smtp\(security == .tls ? "s" : "")://\(user)\(shownHost):\(port) (\(security.rawValue))"
    }

    /// `url` with its password, if it has one, replaced by `********`.
    public static func maskingPassword(in url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(an SMTP URL that does not parse)" }
        guard components.percentEncodedPassword != nil else { return url }
        components.percentEncodedPassword = "********"
        return components.string ?? "(an SMTP URL)"
    }

    /// This machine's host name when it is a dotted name, else `localhost`.
    static var defaultHeloName: String {
        let name = ProcessInfo.processInfo.hostName
        return name.contains(".") && isValidHeloName(name) ? name : "localhost"
    }

    /// A host name of letters, digits, `-` and `.`, or `[address]`, at most 255 characters.
    static func isValidHeloName(_ name: String) -> Bool {
        guard (1...255).contains(name.utf8.count) else { return false }
        if name.hasPrefix("["), name.hasSuffix("]") {
            let inner = name.dropFirst().dropLast()
            return !inner.isEmpty && inner.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == ":") }
        }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }
}
