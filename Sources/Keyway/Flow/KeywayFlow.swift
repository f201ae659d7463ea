import Foundation
import KeywayProtocol

/// The running flow: observe it through ``onUpdate`` or ``updates`` and hand the user's input
/// back through its calls. Obtain it from ``Keyway/flow``.
///
/// Calls never throw: every failure arrives as a ``FlowUpdate/error(code:action:message:retryable:details:meta:)``
/// update whose `action` tells the app what to do next.
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
