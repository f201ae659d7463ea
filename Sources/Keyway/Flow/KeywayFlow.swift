import Foundation
import KeywayProtocol

/// The running flow: observe it through ``onUpdate`` or ``updates`` and hand the user's input
/// back through its calls. Obtain it from ``Keyway/flow``.
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

    /// A stream of updates that starts with the current one. Each access makes a new stream.
    public var updates: AsyncStream<FlowUpdate> { driver.broadcaster.stream() }

    /// The latest update.
    public var currentUpdate: FlowUpdate { driver.broadcaster.current }

    /// The raw hypermedia step the flow is on, for generic rendering.
    public var currentStep: Step? {
        get async { await driver.currentStep }
    }

    /// Submits a one-time code for an `enterCode` prompt.
    public func submitCode(_ code: String) async {
        await driver.submitCode(code)
    }

    /// Chooses a method for a ``Prompt/selectMethod(methods:purpose:skippable:)`` prompt: `id` is
    /// the chosen ``MethodOption/id``. An `id` that is not among the options is refused locally
    /// (`invalid_request`).
    public func selectMethod(id: String) async {
        await driver.selectMethod(id: id)
    }

    /// Skips a ``Prompt/selectMethod(methods:purpose:skippable:)`` prompt whose `skippable` is
    /// `true` (an optional second factor).
    public func skip() async {
        await driver.skip()
    }

    /// Sends the phone number for a ``Prompt/setupSms(existingPhone:)`` prompt, in E.164 form
    /// (`+14155550123`; the server also accepts spaces and dashes). Leading and trailing spaces
    /// are trimmed.
    public func submitPhone(_ phone: String) async {
        await driver.submitPhone(phone)
    }

    /// Sends an authenticator code for a ``Prompt/setupTotp(secret:otpauthUrl:period:digits:algorithm:)``
    /// or ``Prompt/enterTotp(digits:purpose:)`` prompt. Spaces are removed (`"123 456"` is sent as
    /// `"123456"`). A wrong code gives an error with `retryInput`; the prompt stays valid.
    public func submitTotp(_ code: String) async {
        await driver.submitTotp(code)
    }

    /// Sends the password for a ``Prompt/enterPassword(purpose:minimumLength:)`` prompt, exactly
    /// as typed. The password is never logged, nor part of any event.
    public func submitPassword(_ password: String) async {
        await driver.submitPassword(password)
    }

    /// Submits a ``Prompt/form(formId:title:fields:)`` prompt with `values` by field name.
    ///
    /// Values are checked locally first (``KeywayProtocol/Action/validate(_:)``): when a field
    /// fails, an `invalid_request` error with `retryInput` lists every bad field in the problem's
    /// `invalidFields`, and nothing is sent. Hidden fields keep their own value, checkboxes are
    /// sent as `"true"` or `"false"`, names that are not fields are ignored.
    public func submitForm(_ values: [String: String]) async {
        await driver.submitForm(values)
    }

    /// Performs an operation of a ``Prompt/manageAccount(methods:operations:)`` prompt by its
    /// name (`setupTotp`, `removeTotp`, `setupSms`, `removeSms`, `changePassword`, `finish`, or any
    /// other the step offers). `"cancel"` cancels the flow as ``cancel()`` does.
    public func perform(operation: String) async {
        await driver.perform(operation: operation)
    }

    /// Stops trusting one of the devices a ``Prompt/manageAccount(methods:operations:)`` prompt
    /// lists (`context.step.manageAccount?.devices`). The prompt comes back without it.
    public func revokeDevice(id: String) async {
        await driver.perform(actionNamed: "revokeDevice", parameters: ["deviceId": id])
    }

    /// Polls an ``Prompt/awaitApproval(matchingNumber:qrData:expiresAt:)`` prompt once: the
    /// prompt again while no trusted device answered, the next step once one approved, an error
    /// when it was denied or expired. Needed only with ``KeywayOptions/autoPollApprovals`` off;
    /// polling faster than the server's `pollInterval` answers `slow_down` with `wait`.
    public func pollApproval() async {
        await driver.perform(actionNamed: "poll", parameters: [:])
    }

    /// Requests a new code. Returns `false` without contacting the server while the cooldown
    /// runs (see the prompt's `resendAt`), and `false` when the server refuses; `true` once a new
    /// code was sent, after the prompt was re-emitted with its new `resendAt`.
    @discardableResult
    public func resend() async -> Bool {
        await driver.resend()
    }

    /// Abandons the flow (telling the server) and returns to ``FlowUpdate/idle``.
    public func cancel() async {
        await driver.cancel()
    }

    /// Performs one of the current step's actions with field values by name. The hypermedia
    /// entry point for steps the SDK has no prompt for.
    public func submit(action: Action, parameters: [String: String] = [:]) async {
        await driver.perform(action: action, parameters: parameters)
    }

    /// Follows one of the current step's links.
    public func follow(link: Link) async {
        await driver.follow(link: link)
    }
}
