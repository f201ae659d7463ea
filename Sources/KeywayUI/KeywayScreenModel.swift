#if canImport(Observation)
    import Foundation
    import Keyway
    import Observation

    /// Runs a whole flow as screens: start it, render ``screen``, keep the user's input in
    /// ``values``, and hand each button of the screen to ``perform(_:)``. When the flow completes,
    /// the model redeems the authorization code (a public application) and saves the tokens in the
    /// session it was given; ``tokens`` then holds them.
    ///
    /// The model is platform-neutral: SwiftUI observes it, and a terminal or a test drives it the
    /// same way.
    @MainActor
    @Observable
    public final class KeywayScreenModel {
        /// The screen to render now (set directly only by previews and tests of a renderer).
        public internal(set) var screen = Screen(kind: .idle, title: "")
        /// The input values by input name, as the user types them.
        public var values: [String: String] = [:]
        /// The tokens of the completed flow, once redeemed (and saved in the session, if any).
        public private(set) var tokens: TokenSet?

        @ObservationIgnored private let keyway: KeywayClient
        @ObservationIgnored private let session: KeywaySession?
        @ObservationIgnored private var started: (identifier: String, flowType: FlowType)?
        @ObservationIgnored private var shownStep: String?

        /// - Parameters:
        ///   - keyway: The SDK whose ``KeywayClient/flow`` the model runs.
        ///   - session: Where to save the tokens when the flow completes (`nil`: only ``tokens``).
        public init(keyway: KeywayClient, session: KeywaySession? = nil) {
            self.keyway = keyway
            self.session = session
        }

        /// Starts a flow for `identifier` and shows its first step.
        public func start(identifier: String, flowType: FlowType = .signin) async {
            started = (identifier, flowType)
            tokens = nil
            screen = Screen(kind: .loading, title: "", isLoading: true)
            await keyway.flow.start(flowType: flowType, identifier: identifier)
            await refresh()
        }

        /// Performs a button of the current screen. A primary action's inputs are checked first;
        /// refused ones get their ``ScreenInput/error`` and nothing is sent.
        public func perform(_ action: ScreenAction) async {
            if action.role == .restart {
                guard let started else { return }
                await start(identifier: started.identifier, flowType: started.flowType)
                return
            }
            switch action.actionName {
            case "cancel":
                await keyway.flow.cancel()
            case "resend":
                _ = await keyway.flow.resend()
            case let name?:
                var parameters = action.parameters
                if action.submitsInputs {
                    var refused = false
                    for index in screen.inputs.indices {
                        let input = screen.inputs[index]
                        let value = values[input.name] ?? input.initialValue
                        screen.inputs[index].error = input.validate(value)
                        refused = refused || screen.inputs[index].error != nil
                        if let value { parameters[input.name] = value }
                    }
                    if refused { return }
                }
                guard let step = keyway.flow.currentPrompt?.context.step, let target = step.action(named: name) else {
                    await refresh()
                    return
                }
                screen.isLoading = true
                await keyway.flow.submit(action: target, parameters: parameters)
            case nil:
                return
            }
            await refresh()
        }

        /// Rebuilds the screen from the flow; redeems the code once the flow completed.
        private func refresh() async {
            let update = keyway.flow.currentUpdate
            var next = Screen.make(update: update, prompt: keyway.flow.currentPrompt)
            let stepID = keyway.flow.currentPrompt.map { "\($0.context.step.flowId)/\($0.context.meta.traceId)" }
            if case .prompt = update, stepID != shownStep {
                // A new step: its inputs start empty (or with their pre-filled values).
                values = [:]
                shownStep = stepID
            }
            if case .completed(_, let authCode, _, let codeVerifier?, _) = update {
                do {
                    let redeemed = try await keyway.exchange(authCode: authCode, codeVerifier: codeVerifier)
                    if let session { try await session.save(redeemed) }
                    tokens = redeemed
                } catch {
                    let recoverable = error as? any KeywayRecoverableError
                    next = Screen(
                        kind: .ended, title: "Sign-in stopped",
                        banner: Banner(
                            code: .invalidResponse, message: recoverable?.errorDescription ?? String(describing: error),
                            action: .restartFlow, recovery: recoverable?.recovery ?? .startOver,
                            suggestion: recoverable?.recoverySuggestion))
                }
            }
            screen = next
        }
    }
#endif
