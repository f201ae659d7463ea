import Foundation
import Keyway
import KeywayProtocol

/// Drives a flow in the terminal: renders each update and reads the user's answers, through the
/// public SDK API only.
final class FlowSession {
    /// What the flow handed over at its end.
    struct Completed {
        var authCode: Sensitive<String>
        var codeVerifier: Sensitive<String>
    }

    /// How a flow ended.
    enum Outcome {
        /// It completed with an authorization code.
        case completed(Completed)
        /// The user finished an account-management flow, which ended without a code.
        case finished
        /// It failed or was cancelled (already reported).
        case failed
    }

    let keyway: KeywayClient
    let terminal: Terminal
    let server: String
    /// Set when the user chose an operation that ends the flow (`finish`), so that a flow ending
    /// without a code counts as done rather than cancelled.
    var finishing = false
    /// Reasons the server gave for bad fields, by field name, shown next to the fields when a
    /// prompt is asked again.
    var fieldErrors: [String: String] = [:]

    init(keyway: KeywayClient, terminal: Terminal, server: String) {
        self.keyway = keyway
        self.terminal = terminal
        self.server = server
    }

    var flow: KeywayFlow { keyway.flow }

    /// Starts the flow with `start` and runs it to its end. When `start` returns `false` (it
    /// could not start the flow, and said why), the outcome is `failed` at once.
    func run(start: () async -> Bool) async -> Outcome {
        guard await start() else { return .failed }
        var lastPrompt: (PromptContext, Prompt)?
        while true {
            switch flow.currentUpdate {
            case .idle:
                if finishing {
                    terminal.status("Done.")
                    return .finished
                }
                terminal.status("Cancelled.")
                return .failed
            case .loading:
                // Calls return after their final update, so this is not reached in practice.
                try? await Task.sleep(for: .milliseconds(20))
            case .completed(_, let authCode, _, let codeVerifier, _):
                guard let codeVerifier else {
                    terminal.status("Error: the flow completed without a code verifier.")
                    return .failed
                }
                return .completed(Completed(authCode: authCode, codeVerifier: codeVerifier))
            case .prompt(let context, let prompt):
                if lastPrompt?.0 != context { render(context) }
                lastPrompt = (context, prompt)
                fieldErrors = [:]
                guard await answer(prompt, context: context) else { return .failed }
            case .error(let code, let action, let message, _, let details, let meta):
                report(code: code, action: action, message: message, details: details, meta: meta)
                switch action {
                case .retryInput, .resendCode, .selectMethod:
                    guard let (context, prompt) = lastPrompt else { return .failed }
                    fieldErrors = Dictionary(
                        (details?.invalidFields ?? []).map { ($0.name, $0.reason) }, uniquingKeysWith: { first, _ in first })
                    guard await answer(prompt, context: context) else { return .failed }
                default:
                    return .failed
                }
            }
        }
    }

    private func render(_ context: PromptContext) {
        if let label = context.stepInfo?.label { terminal.status("\n\(label)") }
        if let risk = context.risk { terminal.status("Risk \(risk.level): \(risk.message ?? "")") }
        for message in context.messages {
            terminal.status(message.level == "error" ? "Error: \(message.text)" : message.text)
        }
    }

    /// Reads one answer and hands it to the SDK. `false` ends the session.
    private func answer(_ prompt: Prompt, context: PromptContext) async -> Bool {
        switch prompt {
        case .enterCode(_, let codeLength, _, let resendAt, _):
            return await answerEnterCode(codeLength: codeLength, resendAt: resendAt)
        case .selectMethod(let methods, let purpose, let skippable):
            return await answerSelectMethod(methods: methods, purpose: purpose, skippable: skippable)
        case .setupSms(let existingPhone):
            return await answerSetupSms(existingPhone: existingPhone, step: context.step)
        case .setupTotp(let secret, let otpauthUrl, let period, let digits, let algorithm):
            return await answerSetupTotp(
                secret: secret, otpauthUrl: otpauthUrl, period: period, digits: digits, algorithm: algorithm)
        case .enterTotp(let digits, _):
            return await answerEnterTotp(digits: digits, attemptsRemaining: context.step.enterTotp?.attemptsRemaining)
        case .enterPassword(let purpose, let minimumLength):
            return await answerEnterPassword(purpose: purpose, minimumLength: minimumLength)
        case .form(_, let title, let fields):
            return await answerForm(title: title, fields: fields)
        case .manageAccount(let methods, let operations):
            return await answerManageAccount(
                methods: methods, devices: context.step.manageAccount?.devices, operations: operations)
        case .awaitApproval(let matchingNumber, let qrData, let expiresAt):
            return await awaitApproval(
                matchingNumber: matchingNumber, qrData: qrData, expiresAt: expiresAt, context: context)
        case .unrecognized:
            return await GenericStepRenderer(flow: flow, terminal: terminal, fieldErrors: fieldErrors)
                .answer(context.step)
        }
    }

    /// Reads one trimmed line. At end of input, or when the user types `cancel`, cancels the flow
    /// and returns `nil`.
    func read(_ question: String) async -> String? {
        guard let line = terminal.ask(question) else {
            terminal.status("No input: cancelling.")
            await flow.cancel()
            return nil
        }
        if line.lowercased() == "cancel" {
            await flow.cancel()
            terminal.status("Cancelled.")
            return nil
        }
        return line
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
        case .abort:
            // A denied approval is a decision, not a misconfiguration.
            if details?.status != 0, code != .approvalDenied { line += " Check the server URL and config ID." }
        case .wait:
            if let retryAt = details?.retryAt { line += " Try again at \(Terminal.format(retryAt))." }
        default: break
        }
        if let traceId = meta?.traceId { line += " (trace \(traceId))" }
        terminal.status(line)
    }
}
