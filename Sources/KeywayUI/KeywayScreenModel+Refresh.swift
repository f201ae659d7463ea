#if canImport(Observation)
    import Foundation
    import Keyway

    extension KeywayScreenModel {
        /// Rebuilds the screen from the flow; redeems the code once the flow completed.
        ///
        /// - Parameter endingWithoutCode: The flow was answered (not cancelled), so a flow that is
        ///   idle now was closed by the server without a code: the user finished it.
        func refresh(endingWithoutCode: Bool = false) async {
            let update = keyway.flow.currentUpdate
            // A completion is redeemed once; its screen stays as it was made.
            if case .completed = update, update == shownUpdate { return }
            var next = Screen.make(
                update: update, context: keyway.flow.currentPrompt?.context, language: language, screens: screens)
            let stepID = keyway.flow.currentPrompt.map { "\($0.context.step.flowID)/\($0.context.meta.traceID)" }
            if case .prompt = update, stepID != shownStep {
                // A new step: its inputs start empty (or with their pre-filled values).
                values = [:]
                shownStep = stepID
            }
            switch update {
            case .idle where endingWithoutCode:
                next = Screen(
                    kind: .finished, title: language("Done"),
                    messages: [ScreenMessage(level: .info, code: "finished", text: language("You are done."))],
                    language: language)
            case .completed(_, let authCode, _, let codeVerifier?, _):
                shownUpdate = update
                next = await redeem(authCode: authCode, codeVerifier: codeVerifier, on: next)
            default:
                break
            }
            shownUpdate = update
            screen = next
        }

        /// Redeems the code and saves the tokens in the session: the completed screen, with a
        /// warning when the tokens could not be saved, or an ended one when the code could not be
        /// redeemed.
        private func redeem(authCode: Sensitive<String>, codeVerifier: Sensitive<String>, on completed: Screen) async
            -> Screen
        {
            if let completion = await keyway.flow.completion, completion.authCode == authCode,
                let saved = completion.tokens
            {
                // The SDK saved the sign-in (``CompletedSignIns/saveToSession``).
                tokens = saved
                return completed
            }
            let redeemed: TokenSet
            do {
                redeemed = try await keyway.tokens.exchange(authCode: authCode, codeVerifier: codeVerifier)
            } catch {
                let recoverable = error as? any KeywayRecoverableError
                let reason = recoverable?.errorDescription ?? String(describing: error)
                return Screen(
                    kind: .ended, title: language("Sign-in stopped"),
                    secondaryActions: [
                        ScreenAction(id: "restart", label: language("Start again"), role: .restart, actionName: nil)
                    ],
                    banner: Banner(
                        code: .invalidResponse,
                        message: language("The sign-in completed, but its code could not be redeemed: %@", reason),
                        action: .restartFlow, recovery: recoverable.map { Banner.Recovery($0.recovery) } ?? .startOver,
                        suggestion: recoverable?.recoverySuggestion), language: language)
            }
            var screen = completed
            tokens = redeemed
            do throws(SessionError) {
                try await keyway.session.save(redeemed)
            } catch {
                screen.messages.append(
                    ScreenMessage(
                        level: .warning, code: "sessionNotSaved",
                        text: language("You are signed in, but the session could not be saved: %@", error.description)))
            }
            return screen
        }
    }
#endif
