import Foundation
import KeywayProtocol

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
        /// The flow completed (`KeywayScreenModel.tokens` holds the redeemed tokens).
        case completed
        /// The flow ended without a code after the user finished it (a server that closes an
        /// account-management flow with no new sign-in): nothing to redeem, nothing went wrong.
        case finished
        /// The flow is over after an error (`restartFlow`, `abort`).
        case ended
    }

    /// What the screen is for.
    public var kind: Kind
    /// A title (`Verify your email`).
    public var title: String
    /// Sentences to show above the inputs.
    public var messages: [ScreenMessage]
    /// What the user is asked to do, in a few words (`Choose a second factor`, `What would you
    /// like to do?`), above a list of choices: a renderer that lists the actions in words (a
    /// terminal, a voice) asks it; a visual one may show it as a subtitle.
    public var instruction: String?
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
    /// The flow moves on by itself from this screen (an approval decided on another device, which
    /// the SDK polls for): show it and call `KeywayScreenModel.waitForFlow()`.
    public var isWaiting: Bool
    /// A page to open in a browser (sign in with another provider), with the
    /// ``ScreenAction/Role/openBrowser`` action that opens it; `nil` on other screens.
    public var browser: ScreenBrowser?
    /// The language of the words the screen model wrote (a renderer writes its own in it too:
    /// `Copy`, `Working`).
    public var language: ScreenLanguage

    /// A screen; every part but the kind and the title is empty unless given.
    ///
    /// - Parameters:
    ///   - kind: What the screen is for.
    ///   - title: A title.
    ///   - messages: Sentences to show above the inputs.
    ///   - instruction: What the user is asked to do, in a few words.
    ///   - displays: What the screen shows besides inputs.
    ///   - inputs: The inputs, in order.
    ///   - primaryAction: The main button.
    ///   - secondaryActions: The other buttons.
    ///   - links: Related links of the step.
    ///   - countdowns: Moments the screen counts down to.
    ///   - banner: The error to show.
    ///   - isLoading: Whether a request is on its way.
    ///   - isWaiting: Whether the flow moves on by itself from this screen.
    ///   - browser: A page to open in a browser, if any.
    ///   - language: The language of the screen's own words (default: ``ScreenLanguage/current``).
    public init(
        kind: Kind, title: String, messages: [ScreenMessage] = [], instruction: String? = nil,
        displays: [ScreenDisplay] = [], inputs: [ScreenInput] = [], primaryAction: ScreenAction? = nil,
        secondaryActions: [ScreenAction] = [], links: [Link] = [], countdowns: [Countdown] = [], banner: Banner? = nil,
        isLoading: Bool = false, isWaiting: Bool = false, browser: ScreenBrowser? = nil,
        language: ScreenLanguage = .current
    ) {
        self.kind = kind
        self.title = title
        self.messages = messages
        self.instruction = instruction
        self.displays = displays
        self.inputs = inputs
        self.primaryAction = primaryAction
        self.secondaryActions = secondaryActions
        self.links = links
        self.countdowns = countdowns
        self.banner = banner
        self.isLoading = isLoading
        self.isWaiting = isWaiting
        self.browser = browser
        self.language = language
    }

    /// Every action of the screen, the primary one first.
    public var actions: [ScreenAction] { (primaryAction.map { [$0] } ?? []) + secondaryActions }

    /// The action with `id`, if the screen has it.
    ///
    /// - Parameter id: The action's ``ScreenAction/id``.
    /// - Returns: The first action of ``actions`` with that ID, or `nil`.
    public func action(_ id: String) -> ScreenAction? { actions.first { $0.id == id } }

    /// The inputs `action` sends: those it names (an account operation's own fields), else all of
    /// them when it submits the screen's inputs, else none.
    ///
    /// - Parameter action: One of the screen's actions.
    /// - Returns: The inputs it sends, in the screen's order.
    public func inputs(of action: ScreenAction) -> [ScreenInput] {
        guard action.submitsInputs else { return [] }
        guard let names = action.inputNames else { return inputs }
        return inputs.filter { names.contains($0.name) }
    }

    /// The first countdown for `purpose`, if the screen has one.
    ///
    /// - Parameter purpose: What happens when the countdown ends.
    /// - Returns: When it ends, or `nil`.
    public func countdown(_ purpose: Countdown.Purpose) -> Date? { countdowns.first { $0.purpose == purpose }?.date }
}
