import Foundation
import KeywayProtocol

/// The flow's `callback`: the provider's code and state (or only the state, once the browser
/// callback verified the answer). The state is checked and the answer verified before the flow's
/// transaction, as they talk to the provider; the identity then signs its user in, links by a
/// verified address, asks to sign in to link, or signs up (``apply(_:provider:_:)``).
extension FederationMethod {
    static func callback(
        code: String?, state: String, target: FlowEngine.Target, callbacks: FederationCallbacks, inputs: StagedInputs
    ) async throws -> Step {
        let now = callbacks.clock.now().epochMilliseconds
        let stateHash = sha256Hex(state)
        guard let issued = try await callbacks.issuedState(state), issued.record.flowId == target.flowId else {
            throw FlowProblem.invalidState
        }
        if issued.record.consumedAt != nil {
            // A second delivery of the same callback: the flow is where the first one left it.
            return try await inputs.currentStep(target)
        }
        guard let provider = issued.provider, issued.record.expiresAt > now else { throw FlowProblem.invalidState }
        let methodId = AuthenticationMethod(rawValue: provider.methodId)
        let input = inputs.input(for: methodId, target: target)
        let identity: UpstreamIdentity
        do {
            if let outcome = issued.record.outcome {
                // Verified (or refused) when the browser came back (``FederationCallbacks/browserCallback``).
                identity = try UpstreamOutcome.identity(outcome)
            } else if let code {
                identity = try await callbacks.verifyUpstream(issued, code: code, now: now)
            } else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "url", reason: "The callback carries no code, and the provider's answer has not arrived.")
                ])
            }
        } catch let refusal as FlowProblem where refusal.problem.code == .federationFailed {
            // The provider's answer did not verify: its state is spent (the code was too) and
            // the flow goes back to the choice of method, as the problem's action says.
            return try await input.finishWherever { method in
                guard try await method.repositories.federatedIdentities.consumeState(hash: stateHash, at: now) else {
                    return nil
                }
                guard method.context.progress.active(methodId) != nil, method.context.progress.isSignIn else {
                    throw FlowProblem.invalidStep
                }
                method.backToPrimaryChoice()
                return refusal
            }
        }
        let federation = FederationMethod(providerId: provider.id)
        return try await input.finishWherever { method in
            // Consumed once; a concurrent second delivery finds it consumed and changes nothing.
            guard try await method.repositories.federatedIdentities.consumeState(hash: stateHash, at: now) else {
                return nil
            }
            guard let active = method.context.progress.active(methodId), method.context.progress.isSignIn,
                (try? active.state(as: FederationStage.self))?.linking != true
            else { throw FlowProblem.invalidStep }
            return try await federation.apply(identity, provider: provider, &method)
        }
    }
}
