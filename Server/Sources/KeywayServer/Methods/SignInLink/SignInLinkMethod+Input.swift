import Foundation
import KeywayProtocol

/// What the flow's device sends on a sign-in link's stage: the token, when the app was opened
/// with the link on the same device, and the polls of a device that waits while the link is
/// approved on another one.
extension SignInLinkMethod {
    /// The stage's code stage, with the destination its link went to.
    private func stage(_ method: MethodContext) throws -> (stage: CodeStage, destination: String) {
        let stage = try method.state(as: CodeStage.self)
        guard let destination = stage.destination else { throw FlowProblem.invalidStep }
        return (stage, destination)
    }

    /// Refuses a token that cannot be one before the flow is read.
    static func checkToken(_ body: SubmitLinkRequest) throws {
        let token = body.token.revealed
        guard !token.isEmpty, token.utf8.count <= 200 else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "token", reason: "Send the link's token: the last segment of its path.")
            ])
        }
    }

    /// The app was opened with the link (same device): its token completes the step, once.
    func submit(token: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        let (_, destination) = try stage(method)
        try await method.countCheck()
        let hash = method.hasher.hash(linkToken: token)
        let links = method.repositories.signInLinks
        // A link of another flow is refused and left as it is.
        guard let link = try await links.find(tokenHash: hash), link.flowId == method.flowId else { return .invalidLink }
        if method.now >= link.expiresAt { return .codeExpired }
        guard link.state == .pending, try await links.transition(tokenHash: hash, from: .pending, to: .used, now: method.now)
        else { return .linkUsed }
        return try await proved(destination: destination, &method)
    }

    /// Polls the step while its link may be approved on another device: the same step while
    /// nothing happened, the next step once approved, `link_denied` (`abort`) when denied and
    /// `code_expired` once the link and code expired. Polling faster than the step's
    /// `pollInterval` is refused with `slow_down`.
    func poll(_ method: inout MethodContext) async throws -> FlowProblem? {
        var (stage, destination) = try stage(method)
        let seconds = method.policy.signInLink.pollIntervalSeconds
        // A little slack for clocks and transport jitter.
        if let last = stage.lastPolledAt, method.now - last < Int64(seconds) * 1000 - 250 {
            throw FlowProblem.slowDown(seconds: seconds)
        }
        stage.lastPolledAt = method.now
        try method.keep(stage)
        let expired = method.context.flow.otpExpiresAt.map { method.now >= $0 } ?? false
        // No link went out (an identifier without an account): the same answers as with one.
        guard let link = try await method.repositories.signInLinks.find(flowId: method.flowId) else {
            return expired ? .codeExpired : nil
        }
        switch link.state {
        case .pending:
            return expired ? .codeExpired : nil
        case .denied:
            method.spendCode()
            return method.fail(.linkDenied)
        case .used:
            return .linkUsed
        case .approved:
            guard try await method.repositories.signInLinks.takeApproved(tokenHash: link.tokenHash, now: method.now) else {
                return .linkUsed
            }
            return try await proved(destination: destination, &method)
        }
    }

    /// The link or the code proved the address or number: the flow's links are spent, an
    /// unverified account address (or number) becomes verified, and the primary method is done.
    ///
    /// The `amr` (RFC 8176) follows the channel, as the code of the same channel would: `sms`
    /// ("confirmation using SMS text message to the user at a registered number") for a link
    /// texted to a phone, `otp` (a one-time secret, the registry having no email value) for one
    /// emailed.
    func proved(destination: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        method.spendCode()
        try await method.repositories.signInLinks.spend(flowId: method.flowId, now: method.now)
        let channel = channel(for: destination)
        try await method.verify(destination: destination, by: channel)
        return try await method.prove(amr: channel == .sms ? "sms" : "otp")
    }
}
