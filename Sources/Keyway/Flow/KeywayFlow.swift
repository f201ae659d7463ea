import Foundation
import KeywayProtocol

/// The running flow: observe it through ``onUpdate`` or ``updates`` and hand the user's input
/// back through its calls. Obtain it from ``KeywayClient/flow``.
///
/// Calls never throw: every failure arrives as a ``FlowUpdate/error(code:action:message:retryable:details:meta:)``
/// update whose `action` tells the app what to do next. A call whose action the current step does
/// not offer fails before any request with `action_unavailable` (or `no_active_flow` when there
/// is no flow), and the current step stays as it was.
public final class KeywayFlow: Sendable {
    let driver: FlowDriver

    init(driver: FlowDriver) {
        self.driver = driver
    }

    /// Called with every update, on the SDK's own executor: hop to the main actor to touch UI.
    public var onUpdate: (@Sendable (FlowUpdate) -> Void)? {
        get { driver.broadcaster.handler }
        set { driver.broadcaster.handler = newValue }
    }

    /// A stream of updates that starts with the current one and finishes once the flow is over:
    /// after `.completed`, after the `.idle` of ``cancel()`` or ``reset()``, and after an
    /// error whose action is `restartFlow` or `abort` — so `for await update in flow.updates`
    /// ends with the flow. Each access makes a new stream: start the next flow, then iterate again.
    public var updates: AsyncStream<FlowUpdate> { driver.broadcaster.stream() }

    /// The latest update.
    public var currentUpdate: FlowUpdate { driver.broadcaster.current }

    /// The prompt the flow is at, with its context — also while ``currentUpdate`` is `.loading`
    /// or an error the flow goes on after (a wrong code: `retryInput`, `wait`…), so a screen that
    /// draws the current state keeps its input under the error. `nil` once the flow is over
    /// (completed, cancelled, reset, or ended by an error whose action is `restartFlow` or
    /// `abort`) and before it showed a prompt.
    public var currentPrompt: (context: PromptContext, prompt: Prompt)? { driver.broadcaster.currentPrompt }

    /// The raw hypermedia step the flow is on, for generic rendering.
    public var currentStep: Step? {
        get async { await driver.currentStep }
    }

    /// Starts a flow for `identifier`, replacing any flow in progress. Without a `codeChallenge`
    /// the SDK generates PKCE and returns the verifier in ``FlowUpdate/completed(session:authCode:expiresAt:codeVerifier:meta:)``.
    ///
    /// - Parameters:
    ///   - flowType: `signin` (the default), `signup`, or `accountManage` (see
    ///     ``KeywaySession/manageAccount(account:codeChallenge:)``).
    ///   - identifier: The user's email address or phone number.
    ///   - startToken: A start token from the app's backend, which picks the flow type and
    ///     identifier.
    ///   - inviteCode: An invitation code, where sign-up needs one.
    ///   - codeChallenge: An S256 PKCE challenge made elsewhere (a backend); the completion then
    ///     carries no verifier.
    ///   - options: The OpenID Connect parameters: the scope, the `nonce` (the SDK draws one by
    ///     default and checks it in the ID token), a registered redirect URI, a `state`. Malformed
    ///     options fail locally with `invalid_request` and `abort`; the server refuses a scope the
    ///     application may not ask for (`invalid_scope`) and an unregistered redirect URI
    ///     (`invalid_redirect_uri`).
    public func start(
        flowType: FlowType = .signin, identifier: String, startToken: String? = nil, inviteCode: String? = nil,
        codeChallenge: String? = nil, options: FlowStartOptions = FlowStartOptions()
    ) async {
        await driver.start(
            flowType: flowType, identifier: identifier, startToken: startToken, inviteCode: inviteCode,
            codeChallenge: codeChallenge, options: options)
    }

    /// The latest completed flow, with what redeeming its code needs (its nonce, redirect URI and
    /// state besides the code and verifier); kept until the next flow completes. `nil` before any
    /// flow completed, and after a completion whose `state` did not match (an error instead).
    public var completion: FlowCompletion? {
        get async { await driver.completion }
    }

    /// Resumes the flow an earlier process left unfinished, when ``KeywayOptions/resumableFlowStorage``
    /// is set: reads the flow's current step from the server and emits it as a prompt (an
    /// `enterCode` prompt comes back with its original destination and `resendAt`; no code is
    /// sent again). The flow then continues as usual, and its completion carries the saved PKCE
    /// verifier.
    ///
    /// - Returns: `true` once the saved flow's step was emitted; `false` when there is nothing to
    ///   resume: no saved flow, or one that expired, was cancelled or completed, or belongs to
    ///   another server (it is then forgotten).
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` without ``KeywayOptions/resumableFlowStorage``;
    ///   ``KeywayError/storageUnavailable(_:)`` when the storage cannot be read; and
    ///   ``KeywayError/networkFailure(_:)``, ``KeywayError/invalidResponse(_:)`` for an answer the
    ///   SDK cannot read, or ``FlowError`` for a problem worth retrying (rate-limited, busy,
    ///   failing), when the server cannot tell. The saved flow is then kept.
    public func resume() async throws -> Bool {
        try await driver.resume()
    }

    /// Forgets the flow in progress (and its saved copy, when flows are resumable) and returns to
    /// ``FlowUpdate/idle`` without contacting the server.
    public func reset() async {
        await driver.reset()
    }

    /// Chooses a method for a ``Prompt/selectMethod(methods:purpose:skippable:)`` prompt: `id` is
    /// the chosen ``MethodOption/id``. An `id` that is not among the options is refused locally
    /// (`invalid_request`).
    ///
    /// - Parameter id: The ``MethodOption/id`` of the chosen method.
    public func selectMethod(id: String) async {
        await driver.selectMethod(id: id)
    }

    /// Skips a ``Prompt/selectMethod(methods:purpose:skippable:)`` prompt whose `skippable` is
    /// `true` (an optional second factor).
    public func skip() async {
        await driver.skip()
    }

    /// Goes back from a method's prompt to the ``Prompt/selectMethod(methods:purpose:skippable:)``
    /// prompt it was chosen from ("Use another method"), when
    /// ``PromptContext/offersAnotherMethod`` is `true`: the password prompt of a user who would
    /// rather have a code, say. Otherwise a local `action_unavailable` error.
    public func useAnotherMethod() async {
        await driver.useAnotherMethod()
    }

    /// Submits a ``Prompt/form`` prompt with `values` by field name.
    ///
    /// Values are checked locally first (``KeywayProtocol/Action/validate(_:)``): when a field
    /// fails, an `invalid_request` error with `retryInput` lists every bad field in the problem's
    /// `invalidFields`, and nothing is sent. Hidden fields keep their own value, checkboxes are
    /// sent as `"true"` or `"false"`, names that are not fields are ignored.
    ///
    /// - Parameter values: The values, by field name.
    public func submitForm(_ values: [String: String]) async {
        await driver.submitForm(values)
    }

    /// Performs an operation of a ``Prompt/manageAccount(methods:operations:)`` prompt by its
    /// name (`setupTotp`, `removeTotp`, `setupSms`, `removeSms`, `changePassword`, `finish`, or any
    /// other the step offers). `"cancel"` cancels the flow as ``cancel()`` does.
    ///
    /// - Parameter operation: The operation's name, as the step's action names it.
    public func perform(operation: String) async {
        await driver.perform(operation: operation)
    }

    /// Stops trusting one of the devices a ``Prompt/manageAccount(methods:operations:)`` prompt
    /// lists (`context.step.payload.manageAccount?.devices`). The prompt comes back without it.
    ///
    /// - Parameter id: The ``KeywayProtocol/TrustedDevice/id`` of the device.
    public func revokeDevice(id: String) async {
        await driver.perform(.named("revokeDevice"), parameters: ["deviceId": id])
    }

    /// Signs out one of the other sessions a ``Prompt/manageAccount(methods:operations:)`` prompt
    /// lists (`context.step.payload.manageAccount?.sessions`, those not ``KeywayProtocol/AccountSession/current``):
    /// its tokens stop working, and a browser it signed in through is signed out of the hosted
    /// pages. The prompt comes back without it. `perform(operation: "endOtherSessions")` signs out
    /// every session but the step's own.
    ///
    /// - Parameter id: The ``KeywayProtocol/AccountSession/id`` of the session.
    public func endSession(id: String) async {
        await driver.perform(.named("endSession"), parameters: ["sessionId": id])
    }

    /// Abandons the flow (telling the server) and returns to ``FlowUpdate/idle``.
    public func cancel() async {
        await driver.cancel()
    }

    /// Performs one of the current step's actions with field values by name. The hypermedia
    /// entry point for steps the SDK has no prompt for.
    ///
    /// A required field without a value (in `parameters` or the field's own ``KeywayProtocol/Field/value``)
    /// fails locally with `invalid_request` and `retryInput`; nothing is sent.
    ///
    /// - Parameters:
    ///   - action: One of the current step's ``KeywayProtocol/Step/actions``.
    ///   - parameters: The field values, by field name.
    public func submit(action: Action, parameters: [String: String] = [:]) async {
        await driver.perform(action: action, parameters: parameters)
    }

    /// Follows one of the current step's links.
    ///
    /// - Parameter link: One of the current step's ``KeywayProtocol/Step/links``.
    public func follow(link: Link) async {
        await driver.follow(link: link)
    }
}
