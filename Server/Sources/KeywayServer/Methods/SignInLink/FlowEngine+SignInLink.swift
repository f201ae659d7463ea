import Foundation
import KeywayProtocol

/// Sign-in links: the token posted by the app on the same device, the polls of the device that
/// waits while the link is approved on another one, and what the link's page reads and decides.
extension FlowEngine {
    /// The sign-in link stage of the flow, with its code stage.
    private func linkStage(_ context: Context) throws -> (active: ActiveMethod, stage: CodeStage) {
        let (method, active, stage) = try codeStage(context)
        guard method.id == .signInLink else { throw FlowProblem.invalidStep }
        return (active, stage)
    }

    /// The app was opened with the link (same device): its token completes the step, once.
    func submitLink(_ target: Target, token: String) async throws -> Step {
        guard !token.isEmpty, token.utf8.count <= 200 else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "token", reason: "Send the link's token: the last segment of its path.")
            ])
        }
        return try await run(target) { context, repositories in
            let (_, stage) = try self.linkStage(context)
            try await self.consumeCheck(context, in: repositories)
            let hash = self.hasher.hash(linkToken: token)
            // A link of another flow is refused and left as it is.
            guard let link = try await repositories.signInLinks.find(tokenHash: hash), link.flowId == context.flow.id
            else { return .invalidLink }
            if context.now >= link.expiresAt { return .codeExpired }
            guard link.state == .pending,
                try await repositories.signInLinks.transition(tokenHash: hash, from: .pending, to: .used, now: context.now)
            else { return .linkUsed }
            return try await self.linkProved(destination: stage.destination ?? "", &context, in: repositories)
        }
    }

    /// Polls the step while its link may be approved on another device: the same step while
    /// nothing happened, the next step once approved, `link_denied` (`abort`) when denied and
    /// `code_expired` once the link and code expired. Polling faster than the step's
    /// `pollInterval` is refused with `slow_down`.
    func pollLink(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            let (active, current) = try self.linkStage(context)
            var stage = current
            let seconds = context.policy.signInLink.pollIntervalSeconds
            // A little slack for clocks and transport jitter.
            if let last = stage.lastPolledAt, context.now - last < Int64(seconds) * 1000 - 250 {
                throw FlowProblem.slowDown(seconds: seconds)
            }
            stage.lastPolledAt = context.now
            context.progress.stage = .method(try ActiveMethod(.signInLink, purpose: active.purpose, state: stage))
            let expired = context.flow.otpExpiresAt.map { context.now >= $0 } ?? false
            // No link went out (an identifier without an account): the same answers as with one.
            guard let link = try await repositories.signInLinks.find(flowId: context.flow.id) else {
                return expired ? .codeExpired : nil
            }
            switch link.state {
            case .pending:
                return expired ? .codeExpired : nil
            case .denied:
                context.flow.state = .failed
                context.flow.otpHash = nil
                return .linkDenied
            case .used:
                return .linkUsed
            case .approved:
                guard try await repositories.signInLinks.takeApproved(tokenHash: link.tokenHash, now: context.now) else {
                    return .linkUsed
                }
                return try await self.linkProved(destination: stage.destination ?? "", &context, in: repositories)
            }
        }
    }

    /// The link or the code proved the address or number: the flow's links are spent, an
    /// unverified account address (or number) becomes verified, and the primary method is done.
    ///
    /// The `amr` (RFC 8176) follows the channel, as the code of the same channel would: `sms`
    /// ("confirmation using SMS text message to the user at a registered number") for a link
    /// texted to a phone, `otp` (a one-time secret, the registry having no email value) for one
    /// emailed.
    func linkProved(destination: String, _ context: inout Context, in repositories: Repositories) async throws
        -> FlowProblem?
    {
        context.flow.otpHash = nil
        try await repositories.signInLinks.spend(flowId: context.flow.id, now: context.now)
        let bySMS = SignInLinkMethod().channel(for: destination) == .sms
        if context.progress.isSignIn, var user = context.user {
            if !bySMS, !user.emailVerified, user.email == destination {
                user.emailVerified = true
                try await repositories.users.updateMethods(user)
                context.user = user
                try await addressProved(user, &context, in: repositories)
            } else if bySMS, !user.phoneVerified, user.phone == destination {
                user.phoneVerified = true
                try await repositories.users.updateMethods(user)
                context.user = user
            }
        }
        return try await proved(.signInLink, amr: Self.linkAMR(destination: destination), &context, in: repositories)
    }

    /// The `amr` value of a sign-in link to `destination`: `sms` by SMS, `otp` by email.
    static func linkAMR(destination: String) -> String {
        SignInLinkMethod().channel(for: destination) == .sms ? "sms" : "otp"
    }

    // MARK: The link's page

    /// What the page of a link finds.
    enum LinkLookup: Sendable {
        /// A link that can still be approved or denied, with its flow's application.
        case open(SignInLinkRecord, ApplicationRecord)
        /// Approved or denied on this request.
        case decided(approved: Bool, ApplicationRecord)
        /// Already used, approved or denied.
        case used
        /// Unknown, expired, or its sign-in is over.
        case unknown
    }

    /// Reads the link of `token`; changes nothing (a page that only shows it, or a scanner
    /// fetching it, spends nothing).
    func lookUpLink(token: String) async throws -> LinkLookup {
        let now = clock.now().epochMilliseconds
        let hash = hasher.hash(linkToken: token)
        return try await database.read { repositories in
            try await self.lookUp(hash: hash, now: now, in: repositories)
        }
    }

    /// Approves or denies the sign-in of the link of `token`, once.
    func decideLink(token: String, approve: Bool) async throws -> LinkLookup {
        let now = clock.now().epochMilliseconds
        let hash = hasher.hash(linkToken: token)
        return try await database.write { repositories in
            let found = try await self.lookUp(hash: hash, now: now, in: repositories)
            guard case .open(_, let application) = found else { return found }
            guard
                try await repositories.signInLinks.transition(
                    tokenHash: hash, from: .pending, to: approve ? .approved : .denied, now: now)
            else { return .used }
            self.logger.info("sign-in link decided", metadata: ["approved": "\(approve)"])
            return .decided(approved: approve, application)
        }
    }

    private func lookUp(hash: String, now: Int64, in repositories: Repositories) async throws -> LinkLookup {
        guard let link = try await repositories.signInLinks.find(tokenHash: hash), now < link.expiresAt else {
            return .unknown
        }
        guard link.state == .pending else { return .used }
        guard let flow = try? await repositories.flows.find(id: link.flowId), flow.state == .awaitingCode,
            now < flow.expiresAt,
            let application = try await repositories.applications.find(id: link.applicationId)
        else { return .unknown }
        return .open(link, application)
    }
}
