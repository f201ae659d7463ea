import Foundation
import KeywayProtocol

/// Approvals by another trusted device: polling an ``Prompt/awaitApproval(matchingNumber:qrData:expiresAt:)`` prompt.
extension FlowAction {
    static let poll = FlowAction(name: "poll", unavailableMessage: "This step does not wait for an approval.")
}

extension KeywayFlow {
    /// Polls an ``Prompt/awaitApproval(matchingNumber:qrData:expiresAt:)`` prompt once: the
    /// prompt again while no trusted device answered, the next step once one approved, an error
    /// when it was denied or expired. Needed only with ``KeywayOptions/autoPollApprovals`` off;
    /// polling faster than the server's `pollInterval` answers `slow_down` with `wait`. It polls
    /// an `enterCode` prompt whose message carried a sign-in link the same way.
    public func pollApproval() async {
        await driver.perform(.poll, parameters: [:])
    }
}
