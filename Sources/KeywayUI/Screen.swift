import Foundation
import Keyway

/// A render-ready screen for the current state of a flow: what to title it, what to say, which
/// inputs to show, which buttons, what counts down, and the error to show with its recovery.
/// Platform-neutral values: a SwiftUI, UIKit or terminal renderer draws any step from them, the
/// typed prompts and the steps this SDK does not know alike.
public struct Screen: Sendable, Equatable {
    /// What the screen is for.
    public enum Kind: Sendable, Equatable {
        /// No flow is running.
        case idle
        /// A request is on its way.
        case loading
        /// A step of the flow, by its kind (known or not).
        case step(StepKind)
        /// The flow completed.
        case completed
        /// The flow is over after an error (`restartFlow`, `abort`).
        case ended
    }

    public var kind: Kind
    /// A title (`Verify your email`).
    public var title: String
    /// Sentences to show above the inputs.
    public var messages: [ScreenMessage]
    /// What the screen shows besides inputs: a secret to type into an authenticator, a QR code, a
    /// matching number, the methods of an account.
    public var displays: [ScreenDisplay]
    /// The inputs, in order.
    public var inputs: [ScreenInput]
    /// The main button, which submits the inputs.
    public var primaryAction: ScreenAction?
    /// The other buttons (a method choice offers one per method; resend, skip, cancel).
    public var secondaryActions: [ScreenAction]
    /// Related links of the step.
    public var links: [Link]
    /// Moments the screen counts down to (a new code may be asked for; the code, the approval or
    /// the flow expires).
    public var countdowns: [Countdown]
    /// The error to show, with what to do about it.
    public var banner: Banner?
    /// A request is on its way: disable the buttons.
    public var isLoading: Bool

    public init(
        kind: Kind, title: String, messages: [ScreenMessage] = [], displays: [ScreenDisplay] = [],
        inputs: [ScreenInput] = [], primaryAction: ScreenAction? = nil, secondaryActions: [ScreenAction] = [],
        links: [Link] = [], countdowns: [Countdown] = [], banner: Banner? = nil, isLoading: Bool = false
    ) {
        self.kind = kind
        self.title = title
        self.messages = messages
        self.displays = displays
        self.inputs = inputs
        self.primaryAction = primaryAction
        self.secondaryActions = secondaryActions
        self.links = links
        self.countdowns = countdowns
        self.banner = banner
        self.isLoading = isLoading
    }

    /// Every action of the screen, the primary one first.
    public var actions: [ScreenAction] { (primaryAction.map { [$0] } ?? []) + secondaryActions }

    /// The action with `id`, if the screen has it.
    public func action(_ id: String) -> ScreenAction? { actions.first { $0.id == id } }
}

/// A sentence on a screen.
public struct ScreenMessage: Sendable, Equatable {
    public enum Level: String, Sendable, Equatable {
        case info, warning, error
    }

    public var level: Level
    /// The stable code of the sentence, when it has one (`codeSent`, `risk`).
    public var code: String?
    public var text: String

    public init(level: Level, code: String? = nil, text: String) {
        self.level = level
        self.code = code
        self.text = text
    }
}

/// Something a screen shows that is not an input.
public enum ScreenDisplay: Sendable, Equatable {
    /// A secret to type by hand, grouped for reading (an authenticator's Base32 secret).
    case secret(label: String, value: Sensitive<String>)
    /// Data to show as a QR code (an otpauth URL, an approval's QR data).
    case qrCode(label: String, data: Sensitive<String>)
    /// A short value to compare (an approval's matching number).
    case emphasis(label: String, value: String)
    /// A list of items with details (the account's methods and devices).
    case list(title: String, items: [ScreenListItem])
}

/// One row of a ``ScreenDisplay/list(title:items:)``.
public struct ScreenListItem: Sendable, Equatable {
    public var title: String
    public var detail: String?

    public init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }
}

/// One input of a screen, from a field of the step's action.
public struct ScreenInput: Sendable, Equatable {
    /// How to render it.
    public enum Kind: Sendable, Equatable {
        /// A one-time code of `length` digits.
        case code(length: Int?)
        case text
        case email
        case phone
        /// The account's password.
        case password
        /// A new password (`minimumLength` when known).
        case newPassword(minimumLength: Int?)
        /// One of `options`.
        case choice(options: [FieldOption])
        /// Yes or no.
        case toggle
        /// A field the server sends for an input type this SDK does not know: render as text.
        case other(FieldType)
    }

    /// The keyboard a touch screen shows for it.
    public enum Keyboard: String, Sendable, Equatable {
        case standard, numberPad, email, phone
    }

    /// The field's name: the key of its value.
    public var name: String
    public var label: String
    public var kind: Kind
    public var keyboard: Keyboard
    /// The content type for autofill (`one-time-code`, `email`, `tel`, `current-password`,
    /// `new-password`), as the server hints it.
    public var contentType: String?
    public var placeholder: String?
    public var isRequired: Bool
    /// A value to start with.
    public var initialValue: String?
    /// The field as the server sent it, for local checks (``KeywayProtocol/Field/validate(_:)``).
    public var field: Field
    /// Why the last submitted value was refused, when it was.
    public var error: String?

    public init(field: Field, kind: Kind, error: String? = nil) {
        self.name = field.name
        self.label = field.label ?? field.name
        self.kind = kind
        self.keyboard =
            switch kind {
            case .code: .numberPad
            case .email: .email
            case .phone: .phone
            default: .standard
            }
        self.contentType = field.autocomplete
        self.placeholder = field.placeholder
        self.isRequired = field.required
        self.initialValue = field.value
        self.field = field
        self.error = error
    }

    /// Checks `value` as the server would before it is sent: `nil` when it passes.
    public func validate(_ value: String?) -> String? { field.validate(value)?.reason }
}

/// A button of a screen.
public struct ScreenAction: Sendable, Equatable, Identifiable {
    public enum Role: String, Sendable, Equatable {
        /// Submits the screen's inputs.
        case primary
        /// Another way on (a method to choose, resend, skip).
        case secondary
        /// Leaves the flow.
        case cancel
        /// Starts again after the flow ended.
        case restart
    }

    /// A stable ID (`submitCode`, `selectMethod:totp`, `resend`, `cancel`).
    public let id: String
    public var label: String
    public var role: Role
    /// The server action it performs (`nil` for ``Role/restart``).
    public var actionName: String?
    /// Values it sends besides the inputs (the method of a choice).
    public var parameters: [String: String]
    /// Whether it sends the screen's inputs.
    public var submitsInputs: Bool
    /// It is enabled from this moment on (a new code).
    public var availableAt: Date?

    public init(
        id: String, label: String, role: Role, actionName: String?, parameters: [String: String] = [:],
        submitsInputs: Bool = false, availableAt: Date? = nil
    ) {
        self.id = id
        self.label = label
        self.role = role
        self.actionName = actionName
        self.parameters = parameters
        self.submitsInputs = submitsInputs
        self.availableAt = availableAt
    }
}

/// A moment a screen counts down to.
public struct Countdown: Sendable, Equatable {
    public enum Purpose: String, Sendable, Equatable {
        /// A new code may be asked for.
        case resendAvailable
        /// The current code stops working.
        case codeExpires
        /// The approval request expires.
        case approvalExpires
        /// Try again (after `wait`).
        case retryAvailable
    }

    public var purpose: Purpose
    public var date: Date

    public init(_ purpose: Purpose, _ date: Date) {
        self.purpose = purpose
        self.date = date
    }
}

/// An error shown on a screen, with what to do about it.
public struct Banner: Sendable, Equatable {
    /// The stable code (`invalid_code`).
    public var code: ProblemCode
    /// The sentence to show.
    public var message: String
    /// What to do next, as the flow says.
    public var action: ProblemAction
    /// Retry, start over, or nothing to do at run time.
    public var recovery: KeywayErrorRecovery
    /// A suggestion for people (`Check what you entered and try again.`).
    public var suggestion: String?

    public init(
        code: ProblemCode, message: String, action: ProblemAction, recovery: KeywayErrorRecovery, suggestion: String?
    ) {
        self.code = code
        self.message = message
        self.action = action
        self.recovery = recovery
        self.suggestion = suggestion
    }
}
