import Foundation
import KeywayProtocol

/// Passkeys: the answers to a ``Prompt/passkeyRegister(purpose:skippable:)`` and a
/// ``Prompt/passkeyAuthenticate(purpose:attemptsRemaining:)`` prompt, a sign-in started
/// with a discoverable passkey, and the account's passkeys in account management.
extension FlowAction {
    static let registerPasskey = FlowAction(
        name: "registerPasskey", unavailableMessage: "This step does not ask to create a passkey.")
    static let authenticatePasskey = FlowAction(
        name: "authenticatePasskey", unavailableMessage: "This step does not ask for a passkey.")
    static let addPasskey = FlowAction(name: "addPasskey", unavailableMessage: "This step does not offer to add a passkey.")
    static let renamePasskey = FlowAction(
        name: "renamePasskey", unavailableMessage: "This step does not offer to rename a passkey.")
    static let removePasskey = FlowAction(
        name: "removePasskey", unavailableMessage: "This step does not offer to remove a passkey.")
}

/// The local checks of a passkey's name.
enum PasskeyName {
    /// The most characters of a passkey's name, as the server accepts.
    static let maximumLength = 64
    /// The sentence of a name that is too long.
    static let tooLong = "A passkey's name has at most \(maximumLength) characters."
    /// The sentence of an empty name where one is needed.
    static let missing = "Enter a name for the passkey."
}

extension KeywayFlow {
    /// Starts a sign-in with a discoverable passkey, without an identifier (`passkey: true` in
    /// `POST /v1/flows`, the identifier empty), replacing any flow in progress. The first prompt
    /// is ``Prompt/passkeyAuthenticate(purpose:attemptsRemaining:)`` with options that
    /// name no credential: answer it with ``authenticateWithPasskey(using:)``, and the passkey
    /// the user picks names the account. The flow then goes on as any sign-in (a second factor
    /// where the policy asks). Without an identifier, neither device trust nor the automatic
    /// method choice applies to this flow. Where the application does not offer passkeys, the
    /// server refuses the start.
    ///
    /// - Parameters:
    ///   - codeChallenge: An S256 PKCE challenge made elsewhere; without it the SDK makes one and
    ///     the completion carries the verifier.
    ///   - options: The flow's OpenID Connect parameters.
    public func startPasskeySignIn(codeChallenge: String? = nil, options: FlowStartOptions = FlowStartOptions()) async {
        await driver.start(
            flowType: .signin, identifier: "", startToken: nil, inviteCode: nil, codeChallenge: codeChallenge,
            options: options, passkey: true)
    }

    /// Answers a ``Prompt/passkeyRegister(purpose:skippable:)`` prompt: `authenticator`
    /// makes a passkey for the current step's options, and its answer goes to the server with
    /// `name` (`POST …/passkey/register`, ``KeywayProtocol/RegisterPasskeyRequest``). The flow then
    /// moves on (back to account management, or the completion).
    ///
    /// A name over 64 characters is refused before the authenticator runs (`invalid_request`,
    /// `retryInput`); an empty one is not sent (Keyway names the passkey). When the authenticator
    /// fails (the user cancelled, the device already has a passkey of the account…), nothing is
    /// sent and the error is the flow's, with the ``PasskeyError/code`` (`passkey_cancelled`…)
    /// and `retryInput`: the prompt stays valid. A refusal by the server (`passkey_…` codes,
    /// `retryInput`) reads the step again, whose new options the next attempt uses.
    ///
    /// - Parameters:
    ///   - authenticator: The authenticator that makes the passkey.
    ///   - name: A name for the passkey ("iPhone"), or `nil` to let Keyway name it.
    public func registerPasskey(using authenticator: any PasskeyAuthenticator, name: String? = nil) async {
        await driver.registerPasskey(using: authenticator, name: name)
    }

    /// Answers a ``Prompt/passkeyAuthenticate(purpose:attemptsRemaining:)`` prompt:
    /// `authenticator` signs the current step's challenge, and its answer goes to the server
    /// (`POST …/passkey/authenticate`, ``KeywayProtocol/AuthenticatePasskeyRequest``).
    ///
    /// When the authenticator fails, nothing is sent and the error is the flow's, with the
    /// ``PasskeyError/code`` (`passkey_cancelled`, `passkey_no_credential`…) and `retryInput`:
    /// the prompt stays valid. Every answer spends the step's challenge: after a refusal
    /// (`passkey_signature_invalid`, `passkey_unknown_credential`…, `retryInput` with
    /// `attemptsRemaining`), the SDK reads the step again before emitting the error, so
    /// ``currentPrompt`` carries the new options and the next call uses them.
    ///
    /// - Parameter authenticator: The authenticator that signs.
    public func authenticateWithPasskey(using authenticator: any PasskeyAuthenticator) async {
        await driver.authenticateWithPasskey(using: authenticator)
    }

    /// Adds a passkey from a ``Prompt/manageAccount(methods:operations:)`` prompt (the
    /// `addPasskey` operation): after the user proves who they are again where the server asks,
    /// the flow moves to a ``Prompt/passkeyRegister(purpose:skippable:)`` prompt, then
    /// back to account management.
    public func addPasskey() async {
        await driver.perform(.addPasskey, parameters: [:])
    }

    /// Renames one of the passkeys a ``Prompt/manageAccount(methods:operations:)`` prompt lists
    /// (`context.step.payload.manageAccount?.passkeys`). The name is trimmed; an empty one, or one over 64
    /// characters, is refused locally (`invalid_request`, `retryInput`), and so is an `id` the
    /// step does not list. The prompt comes back with the new name.
    ///
    /// - Parameters:
    ///   - id: The passkey's ``KeywayProtocol/PasskeySummary/id``.
    ///   - name: Its new name.
    public func renamePasskey(id: String, name: String) async {
        await driver.renamePasskey(id: id, name: name)
    }

    /// Removes one of the passkeys a ``Prompt/manageAccount(methods:operations:)`` prompt lists
    /// (`context.step.payload.manageAccount?.passkeys`); an `id` the step does not list is refused
    /// locally. The server refuses to remove the account's last way in. The prompt comes back
    /// without it.
    ///
    /// - Parameter id: The passkey's ``KeywayProtocol/PasskeySummary/id``.
    public func removePasskey(id: String) async {
        await driver.removePasskey(id: id)
    }
}

extension FlowDriver {
    func registerPasskey(using authenticator: any PasskeyAuthenticator, name: String?) async {
        guard stepOffering(.registerPasskey) != nil else { return }
        let name = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let name, name.count > PasskeyName.maximumLength {
            emitLocalError(
                .invalidRequest, action: .retryInput, message: PasskeyName.tooLong,
                field: InvalidField(name: "name", reason: PasskeyName.tooLong))
            return
        }
        guard await refreshStaleStep() else { return }
        guard let options = step?.payload.passkeyRegister?.options else {
            // The step offers the action without its options: nothing an authenticator can answer.
            emitLocalError(.actionUnavailable, action: .abort, message: FlowAction.registerPasskey.unavailableMessage)
            return
        }
        let mine = generation
        let credential: PasskeyRegistrationResponse
        do {
            credential = try await authenticator.makeCredential(options)
        } catch {
            guard mine == generation else { return }
            refuseAuthenticatorFailure(error)
            return
        }
        guard answersCurrentStep(generation: mine, challenge: options.challenge) else { return }
        await perform(
            .registerPasskey, body: RegisterPasskeyRequest(credential: credential, name: name?.isEmpty == true ? nil : name),
            readingStepAfterRefusal: true)
    }

    func authenticateWithPasskey(using authenticator: any PasskeyAuthenticator) async {
        guard stepOffering(.authenticatePasskey) != nil else { return }
        guard await refreshStaleStep() else { return }
        guard let options = step?.payload.passkeyAuthenticate?.options else {
            emitLocalError(.actionUnavailable, action: .abort, message: FlowAction.authenticatePasskey.unavailableMessage)
            return
        }
        let mine = generation
        let credential: PasskeyAssertionResponse
        do {
            credential = try await authenticator.getAssertion(options)
        } catch {
            guard mine == generation else { return }
            refuseAuthenticatorFailure(error)
            return
        }
        guard answersCurrentStep(generation: mine, challenge: options.challenge) else { return }
        await perform(
            .authenticatePasskey, body: AuthenticatePasskeyRequest(credential: credential), readingStepAfterRefusal: true)
    }

    func renamePasskey(id: String, name: String) async {
        guard let step = stepOffering(.renamePasskey), isListedPasskey(id, on: step) else { return }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= PasskeyName.maximumLength else {
            let sentence = name.isEmpty ? PasskeyName.missing : PasskeyName.tooLong
            emitLocalError(
                .invalidRequest, action: .retryInput, message: sentence, field: InvalidField(name: "name", reason: sentence))
            return
        }
        await perform(.renamePasskey, parameters: ["passkeyId": id, "name": name])
    }

    func removePasskey(id: String) async {
        guard let step = stepOffering(.removePasskey), isListedPasskey(id, on: step) else { return }
        await perform(.removePasskey, parameters: ["passkeyId": id])
    }

    /// Whether `id` is among the passkeys the step lists (any ID when it lists none); emits the
    /// local error otherwise.
    private func isListedPasskey(_ id: String, on step: Step) -> Bool {
        guard let passkeys = step.payload.manageAccount?.passkeys, !passkeys.contains(where: { $0.id == id }) else {
            return true
        }
        emitLocalError(
            .invalidRequest, action: .retryInput, message: "Choose one of the account's passkeys.",
            field: InvalidField(name: "passkeyId", reason: "Not one of the account's passkeys."))
        return false
    }

    /// An authenticator's failure as the flow's error: its stable code and `retryInput`; the
    /// prompt stays valid and nothing was sent.
    private func refuseAuthenticatorFailure(_ error: any Error) {
        let failure = PasskeyError(error)
        logger.log(.notice, .flow, "the passkey authenticator failed: \(failure.code.rawValue)")
        emitLocalError(failure.code, action: .retryInput, message: failure.description)
    }

    /// Whether an authenticator's answer, made for the options with `challenge`, still answers
    /// the current step: the same flow (not cancelled, reset or started again meanwhile) at a
    /// step with the same challenge. A stale answer of the same flow gets a local error.
    private func answersCurrentStep(generation mine: Int, challenge: String) -> Bool {
        guard mine == generation else { return false }
        let current = step?.payload.passkeyRegister?.options.challenge ?? step?.payload.passkeyAuthenticate?.options.challenge
        guard current == challenge else {
            emitLocalError(
                .passkeyFailed, action: .retryInput,
                message: "The sign-in moved on while the passkey was in use; try again.")
            return false
        }
        return true
    }
}
