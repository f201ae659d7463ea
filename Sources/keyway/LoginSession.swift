import Foundation
import Keyway
import KeywayProtocol

/// Drives a sign-in flow in the terminal: renders each update and reads the user's answers.
struct LoginSession {
    struct Completed {
        var authCode: Sensitive<String>
        var codeVerifier: Sensitive<String>
    }

    let keyway: Keyway
    let terminal: Terminal
    let server: String

    /// Runs the flow to completion; `nil` when it failed or was cancelled (already reported).
    func run(email: String) async -> Completed? {
        await keyway.start(flowType: .signin, identifier: email)
        var lastPrompt: (PromptContext, Prompt)?
        while true {
            switch keyway.flow.currentUpdate {
            case .idle:
                terminal.status("Cancelled.")
                return nil
            case .loading:
                // Calls return after their final update, so this is not reached in practice.
                try? await Task.sleep(for: .milliseconds(20))
            case .completed(_, let authCode, _, let codeVerifier, _):
                guard let codeVerifier else {
                    terminal.status("Error: the flow completed without a code verifier.")
                    return nil
                }
                return Completed(authCode: authCode, codeVerifier: codeVerifier)
            case .prompt(let context, let prompt):
                if lastPrompt?.0.step != context.step { render(context) }
                lastPrompt = (context, prompt)
                guard await answer(prompt, context: context) else { return nil }
            case .error(let code, let action, let message, _, let details, let meta):
                report(code: code, action: action, message: message, details: details, meta: meta)
                switch action {
                case .retryInput, .resendCode:
                    guard let (context, prompt) = lastPrompt else { return nil }
                    guard await answer(prompt, context: context) else { return nil }
                default:
                    return nil
                }
            }
        }
    }

    private func render(_ context: PromptContext) {
        if let label = context.stepInfo?.label { terminal.status("\n\(label)") }
        if let risk = context.risk { terminal.status("Risk \(risk.level): \(risk.message ?? "")") }
        for message in context.messages { terminal.status(message.text) }
    }

    /// Reads one answer and hands it to the SDK. `false` ends the session.
    private func answer(_ prompt: Prompt, context: PromptContext) async -> Bool {
        switch prompt {
        case .enterCode(_, let codeLength, _, let resendAt, _):
            while true {
                guard let line = terminal.ask("Enter the \(codeLength)-digit code ('resend' or 'cancel'): ") else {
                    terminal.status("No input: cancelling.")
                    await keyway.flow.cancel()
                    return false
                }
                switch line.lowercased() {
                case "":
                    continue
                case "cancel":
                    await keyway.flow.cancel()
                    terminal.status("Cancelled.")
                    return false
                case "resend":
                    if await keyway.flow.resend() {
                        terminal.status("A new code is on its way.")
                        return true
                    }
                    if case .error = keyway.flow.currentUpdate { return true }
                    let wait = max(1, Int(resendAt.timeIntervalSinceNow.rounded(.up)))
                    terminal.status("You can ask for a new code in \(wait) seconds.")
                    continue
                default:
                    await keyway.flow.submitCode(line)
                    return true
                }
            }
        case .unrecognized:
            return await GenericStepRenderer(flow: keyway.flow, terminal: terminal).answer(context.step)
        }
    }

    private func report(
        code: ProblemCode, action: ProblemAction, message: String, details: Problem?, meta: Meta?
    ) {
        if code == .networkError {
            terminal.status("Error: could not reach the Keyway server at \(server). Is it running?")
            return
        }
        var line = "Error: \(message) [\(code.rawValue)]"
        switch action {
        case .restartFlow: line += " Run the command again to start over."
        case .abort: line += " Check the server URL and config ID."
        case .wait:
            if let retryAt = details?.retryAt { line += " Try again at \(Terminal.format(retryAt))." }
        default: break
        }
        if let traceId = meta?.traceId { line += " (trace \(traceId))" }
        terminal.status(line)
    }
}
