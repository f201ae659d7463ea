import Foundation
import KeywayProtocol

/// Sign-in links: one message carries a link and a one-time code, and either completes the step.
/// A primary method for an email identifier. The link opens the app on the same device (which
/// posts its token, ``FlowEngine/submitLink(_:token:)``), or the server's page on another device,
/// where the user approves the sign-in and the original device's flow moves on at its next poll
/// (``FlowEngine/pollLink(_:)``). Only a `POST` spends a link, so scanners that fetch it spend
/// nothing; the token is stored as a keyed hash, single use, bound to its flow, and expires with
/// the code.
struct SignInLinkMethod: CodeMethod {
    let id: FlowMethodID = .signInLink
    let channel: CodeChannel = .email

    var canBePrimary: Bool { true }
    var worksWithoutEnrolment: Bool { true }

    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard policy.uses(id) || policy.signInLink != nil else { return [] }
        return (policy.signInLink ?? SignInLinkSettings()).problems()
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool {
        context.identifier.email != nil && context.policy.signInLink.channels.contains(.email)
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        let masked = context.identifier.email.map(EmailAddress.mask)
        return MethodOption(
            id: id.rawValue, type: id, label: masked.map { "Email a sign-in link to \($0)" } ?? "Email a sign-in link",
            destination: masked)
    }

    func begin(
        _ purpose: MethodPurpose, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories
    ) async throws {
        guard purpose == .primary, let destination = context.identifier.email else { throw FlowProblem.methodUnavailable }
        try await engine.sendCode(self, purpose: purpose, to: destination, &context, in: repositories)
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let destination = (try? active.state(as: CodeStage.self))?.destination ?? context.flow.identifier
        CodeStep.build(
            channel: channel, destination: destination, purpose: active.purpose, context, into: &draft,
            limits: resources.limits,
            link: CodeStep.LinkOptions(pollInterval: context.policy.signInLink.pollIntervalSeconds))
        draft.info = StepInfo(id: "signInLink", label: "Check your email")
    }

    /// The link's routes: the token from the app, and the polls of the waiting device.
    func routes(_ routes: FlowInputRoutes) {
        let engine = routes.engine
        routes.post("link") { request, context, target in
            let body = try await RequestDecoding.json(SubmitLinkRequest.self, from: request, context: context)
            return try await engine.submitLink(target, token: body.token.revealed)
        }
        routes.post("link/poll") { _, _, target in
            try await engine.pollLink(target)
        }
    }

    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws {
        try await repositories.signInLinks.delete(flowId: flowId)
    }

    /// The message: the link and the code. A link is made only where a code goes out (an
    /// identifier without an account gets the notice without either).
    func codeMessage(
        code: String, to destination: String, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> (subject: String, body: String)? {
        let token = SecureRandom.token(prefix: "ksl")
        let previous = try await repositories.signInLinks.find(flowId: context.flow.id)
        try await repositories.signInLinks.replace(
            with: SignInLinkRecord(
                tokenHash: engine.hasher.hash(linkToken: token), flowId: context.flow.id,
                applicationId: context.application.id, location: context.location,
                userAgent: context.clientName ?? previous?.userAgent ?? context.progress.device.userAgent,
                state: .pending, createdAt: context.now,
                expiresAt: context.flow.otpExpiresAt ?? context.now + engine.milliseconds(engine.limits.codeLifetime)))
        let base = context.policy.signInLink.linkBase ?? "\(context.audience)/link"
        let link = "\(base.hasSuffix("/") ? String(base.dropLast()) : base)/\(token)"
        return MessageTemplates.signInLink(
            link: link, code: code, minutes: Int(engine.limits.codeLifetime / 60), application: context.application.name)
    }

    func codeAccepted(
        _ active: ActiveMethod, destination: String, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        try await engine.linkProved(destination: destination, &context, in: repositories)
    }
}
