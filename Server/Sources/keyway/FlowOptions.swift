import ArgumentParser
import Keyway

/// How the first method of a sign-in is chosen when the server offers several.
enum MethodSelectionMode: String, ExpressibleByArgument, CaseIterable {
    /// The SDK chooses from the identifier: an email address → email code, a phone number → SMS code.
    case auto
    /// The list is always shown.
    case manual

    var policy: PrimaryMethodSelectionPolicy {
        switch self {
        case .auto: .automaticFromIdentifier
        case .manual: .manual
        }
    }
}

/// The options of the commands that run a flow.
struct FlowOptions: ParsableArguments {
    @Option(
        name: .customLong("select-method"),
        help: "auto: choose the sign-in method from the identifier (email → email code, +phone → SMS code); manual: always ask.")
    var selectMethod: MethodSelectionMode = .manual

    @Flag(help: "Print the verified token response as JSON on standard output.")
    var json = false

    @Flag(
        help: """
            Listen on 127.0.0.1 for the browser's return when you sign in with another provider: the flow \
            carries the redirect URI http://127.0.0.1:PORT/callback, which the application must register \
            (http://127.0.0.1/callback matches any port).
            """)
    var loopback = false

    @Flag(help: "Open another provider's sign-in page in the system browser (xdg-open or open) instead of only printing it.")
    var open = false

    @Option(name: .customLong("redirect-timeout"), help: "With --loopback: how many seconds to wait for the browser's return.")
    var redirectTimeout = 300

    func validate() throws {
        guard (1...3600).contains(redirectTimeout) else { throw ValidationError("--redirect-timeout is 1 to 3600 seconds.") }
    }
}
