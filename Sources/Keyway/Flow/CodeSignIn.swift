import Foundation

/// Where a sign-in code went: the answer of ``KeywayClient/sendSignInCode(to:options:)``.
public struct SignInCode: Sendable, Equatable {
    /// Where the code went, masked (`a•••@example.com`).
    public let destination: String
    /// Email or SMS.
    public let channel: CodeChannel
    /// How many digits the code has.
    public let codeLength: Int
    /// When the code stops being valid.
    public let expiresAt: Date
    /// The earliest moment a new code may be asked for (``KeywayFlow/resend()``).
    public let resendAt: Date
}

/// The common case in straight-line code: a sign-in with a one-time code sent by email or SMS.
/// These calls run ``flow`` underneath; when the server asks for more than a code (a second
/// factor, a password), they throw ``FlowError`` with `unhandled_step` and the flow stays where it
/// is, so the app can go on with ``KeywayFlow/currentPrompt`` and the flow's calls.
extension KeywayClient {
    /// Starts a sign-in for `identifier` (an email address or an E.164 phone number) and sends it
    /// a one-time code: by email for an email address, by SMS for a phone number, even when the
    /// application offers several methods.
    ///
    /// - Parameters:
    ///   - identifier: The user's email address or phone number.
    ///   - options: The OpenID Connect parameters of the sign-in (scope, nonce, redirect URI,
    ///     state); ``verifySignInCode(_:)`` redeems the code with them.
    /// - Returns: Where the code went, its length and its times.
    /// - Throws: ``FlowError``: the server's refusal (`flow_type_not_enabled`, `rate_limited`
    ///   with `wait`, `network_error` with `retryRequest`…), or `unhandled_step` when the
    ///   application does not sign in with a code sent to this identifier.
    public func sendSignInCode(
        to identifier: String, options: FlowStartOptions = FlowStartOptions()
    ) async throws(FlowError) -> SignInCode {
        await flow.start(flowType: .signin, identifier: identifier, options: options)
        if case .prompt(_, let prompt) = flow.currentUpdate, case .selectMethod(let methods, .primary, _) = prompt.payload,
            let wanted = IdentifierKind(identifier).method, let option = methods.first(where: { $0.type == wanted })
        {
            await flow.selectMethod(id: option.id)
        }
        guard case .prompt(_, let prompt) = flow.currentUpdate,
            case .enterCode(let destination, let codeLength, let expiresAt, let resendAt, let channel) = prompt.payload
        else { throw Self.flowError(flow.currentUpdate) }
        return SignInCode(
            destination: destination, channel: channel, codeLength: codeLength, expiresAt: expiresAt, resendAt: resendAt)
    }

    /// Checks the code ``sendSignInCode(to:options:)`` sent, completes the sign-in and redeems its
    /// authorization code in the app (a public application; a confidential one redeems it on its
    /// backend, see ``KeywayFlow``). The tokens are saved in ``session`` unless
    /// ``KeywayOptions/completedSignIns`` hands completions over.
    ///
    /// - Parameter code: The code the user typed (spaces around it are ignored).
    /// - Returns: The verified tokens.
    /// - Throws: ``FlowError``: a wrong code (`invalid_code` with `retryInput`: call again with
    ///   another code, ``FlowError/attemptsRemaining`` says how many tries are left), an expired
    ///   code (`code_expired`), too many attempts (`too_many_attempts`, `restartFlow`), or
    ///   `unhandled_step` when the server asks for more than the code; or the ``KeywayError`` of
    ///   redeeming the code.
    @discardableResult
    public func verifySignInCode(_ code: String) async throws -> TokenSet {
        guard flow.currentPrompt?.prompt.enterCode != nil else {
            throw FlowError(
                code: .noActiveFlow, action: .restartFlow,
                message: "No sign-in is waiting for a code: send one with sendSignInCode(to:) first.")
        }
        await flow.submitCode(code)
        guard case .completed(_, let authCode, _, let codeVerifier?, _) = flow.currentUpdate else {
            throw Self.flowError(flow.currentUpdate)
        }
        if let saved = await flow.driver.savedTokens(for: authCode) { return saved }
        return try await tokens.exchange(authCode: authCode, codeVerifier: codeVerifier)
    }

    /// Signs a user in with a one-time code in one call: sends the code, asks `code` for what the
    /// user typed, and asks again after a wrong code while attempts are left. The user is then the
    /// current account of ``session`` (unless ``KeywayOptions/completedSignIns`` hands completions
    /// over).
    ///
    /// ```swift
    /// try await keyway.signIn(withCodeSentTo: "ada@example.com") { sent in
    ///     await askUser("Enter the \(sent.codeLength)-digit code sent to \(sent.destination)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - identifier: The user's email address or phone number.
    ///   - options: The OpenID Connect parameters of the sign-in (scope, nonce, redirect URI, state).
    ///   - code: Returns the code the user typed for the delivery described; throwing (or
    ///     cancelling the task) abandons the sign-in.
    /// - Returns: The verified tokens.
    /// - Throws: What ``sendSignInCode(to:options:)`` and ``verifySignInCode(_:)`` throw (a wrong code
    ///   only once no attempt is left), or what `code` throws.
    @discardableResult
    public func signIn(
        withCodeSentTo identifier: String, options: FlowStartOptions = FlowStartOptions(),
        code: @Sendable (SignInCode) async throws -> String
    ) async throws -> TokenSet {
        let sent = try await sendSignInCode(to: identifier, options: options)
        while true {
            let typed: String
            do {
                typed = try await code(sent)
            } catch {
                await flow.cancel()
                throw error
            }
            do {
                return try await verifySignInCode(typed)
            } catch let error as FlowError where error.action == .retryInput {
                continue
            }
        }
    }

    /// The error an update stands for, when a linear call expected something else.
    static func flowError(_ update: FlowUpdate) -> FlowError {
        switch update {
        case .error(let code, let action, let message, _, let details, _):
            return FlowError(code: code, action: action, message: message, problem: details)
        case .prompt(let context, _):
            return FlowError(
                code: .unhandledStep, action: .abort,
                message: "The server asks for a \(context.step.kind.rawValue) step next; go on with the flow's prompt.")
        case .completed:
            return FlowError(code: .unhandledStep, action: .abort, message: "The flow completed without a code to check.")
        case .idle, .loading:
            return FlowError(code: .noActiveFlow, action: .restartFlow, message: "The sign-in is not running.")
        }
    }
}
