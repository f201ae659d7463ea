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
}
