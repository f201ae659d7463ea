import Foundation
import Keyway
import KeywayPresentation
import KeywayProtocol

extension Screen {
    /// The screen for a flow's state: its current update, and the context of its current prompt
    /// (which stays under an error the flow goes on after, so the inputs stay with the error).
    ///
    /// - Parameters:
    ///   - update: ``KeywayFlow/currentUpdate``.
    ///   - context: The context of ``KeywayFlow/currentPrompt``: the step the screen is drawn from.
    ///   - language: The language of the words the screen writes itself.
    ///   - screens: How step kinds without a layout of their own are drawn.
    /// - Returns: A screen to render.
    public static func make(
        update: FlowUpdate, context: PromptContext?, language: ScreenLanguage = .current,
        screens: StepScreens = .standard
    ) -> Screen {
        func make(_ context: PromptContext) -> Screen {
            Screen(step: context.step, messages: context.messages, language: language, screens: screens)
        }
        switch update {
        case .idle:
            return Screen(kind: .idle, title: "", language: language)
        case .loading:
            guard let context else { return Screen(kind: .loading, title: "", isLoading: true, language: language) }
            var screen = make(context)
            screen.isLoading = true
            return screen
        case .prompt(let context, _):
            return make(context)
        case .completed:
            return Screen(
                kind: .completed, title: language("Done"),
                messages: [ScreenMessage(level: .info, text: language("You are signed in."))], language: language)
        case .error(let code, let action, let message, _, let details, let meta):
            let error = FlowError(code: code, action: action, message: message, problem: details)
            let banner = Banner(
                code: code, message: message, action: action, recovery: Banner.Recovery(error.recovery),
                suggestion: error.recoverySuggestion, traceID: meta?.traceID ?? details?.traceID, problem: details)
            guard let context, error.recovery != .startOver, action != .abort else {
                if error.recovery == .retry {
                    // Before any step (the identifier refused, the network down): the app's own
                    // first screen, with the error.
                    return Screen(kind: .idle, title: "", banner: banner, language: language)
                }
                // The flow is over: say why and offer to start again where that helps.
                return Screen(
                    kind: .ended, title: language("Sign-in stopped"),
                    secondaryActions: error.recovery == .startOver
                        ? [ScreenAction(id: "restart", label: language("Start again"), role: .restart, actionName: nil)]
                        : [],
                    banner: banner, language: language)
            }
            var screen = make(context)
            screen.banner = banner
            let refused = Dictionary(
                (details?.invalidFields ?? []).map { ($0.name, $0.reason) }, uniquingKeysWith: { first, _ in first })
            for index in screen.inputs.indices {
                screen.inputs[index].error = refused[screen.inputs[index].name]
            }
            if let retryAt = details?.retryAt { screen.countdowns.append(Countdown(.retryAvailable, retryAt)) }
            return screen
        }
    }
}

extension Banner.Recovery {
    /// The recovery of an SDK error.
    init(_ recovery: KeywayErrorRecovery) {
        self =
            switch recovery {
            case .retry: .retry
            case .startOver: .startOver
            case .notRecoverable: .notRecoverable
            }
    }
}
