import Foundation
import KeywayProtocol

/// Sign-in links: one message carries a link and a one-time code, and either completes the step.
/// A primary method for an email identifier (by email) or a phone number (by SMS), as the
/// policy's `signInLink.channels` allow. The link opens the app on the same device (which
/// posts its token, ``submit(token:_:)``), or the server's page on another device,
/// where the user approves the sign-in and the original device's flow moves on at its next poll
/// (``poll(_:)``). Only a `POST` spends a link, so scanners that fetch it spend
/// nothing; the token is stored as a keyed hash, single use, bound to its flow, and expires with
/// the code.
struct SignInLinkMethod: CodeMethod, PrimaryMethod, ConfigurableMethod, StageResourceMethod {
    let id: FlowMethodID = .signInLink
    let channel: CodeChannel = .email

    /// By SMS to a phone number, by email to an address.
    func channel(for destination: String) -> CodeChannel {
        Identifier(stored: destination).phone != nil ? .sms : .email
    }

    var worksWithoutEnrolment: Bool { true }

    /// Opens the account once its email address is verified.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        user.email != nil && user.emailVerified
    }

    let settings: [any MethodSettings.Type] = [SignInLinkSettings.self]

    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard policy.uses(id) || policy.signInLink != nil else { return [] }
        return (policy.signInLink ?? SignInLinkSettings()).problems(smsDelivery: devMode || policy.delivery.sms != nil)
    }

    /// Where the link goes for the flow's identifier: its address or number, when the policy's
    /// channels include the identifier's.
    private func destination(_ context: FlowEngine.Context) -> String? {
        let channels = context.policy.signInLink.channels
        switch context.identifier {
        case .email(let address): return channels.contains(.email) ? address : nil
        case .phone(let number): return channels.contains(.sms) ? number : nil
        }
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { destination(context) != nil }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        guard let destination = destination(context) else {
            return MethodOption(id: id.rawValue, type: id, label: "Send a sign-in link")
        }
        let masked = Identifier(stored: destination).masked
        let label = channel(for: destination) == .sms ? "Text a sign-in link to \(masked)" : "Email a sign-in link to \(masked)"
        return MethodOption(id: id.rawValue, type: id, label: label, destination: masked)
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        guard purpose == .primary, let destination = destination(method.context) else { throw FlowProblem.methodUnavailable }
        try await method.sendCode(self, to: destination)
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let destination = (try? active.state(as: CodeStage.self))?.destination ?? context.flow.identifier
        let channel = channel(for: destination)
        CodeStep.build(
            channel: channel, destination: destination, purpose: active.purpose, context, into: &draft,
            limits: resources.limits,
            link: CodeStep.LinkOptions(pollInterval: context.policy.signInLink.pollIntervalSeconds))
        draft.info = StepInfo(id: "signInLink", label: channel == .sms ? "Check your messages" : "Check your email")
    }

    /// The link's routes: the token from the app, and the polls of the waiting device.
    func routes(_ routes: FlowInputRoutes) {
        routes.input("link", of: id, as: SubmitLinkRequest.self, check: Self.checkToken) { body, method in
            try await submit(token: body.token.revealed, &method)
        }
        routes.input("link/poll", of: id) { method in
            try await poll(&method)
        }
    }

    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws {
        try await repositories.signInLinks.delete(flowId: flowId)
    }

    /// The message: the link and the code. A link is made only where a code goes out (an
    /// identifier without an account gets the notice without either).
    func codeMessage(code: String, to destination: String, _ method: inout MethodContext) async throws
        -> (subject: String, body: String)?
    {
        let context = method.context
        let token = SecureRandom.token(prefix: "ksl")
        let previous = try await method.repositories.signInLinks.find(flowId: context.flow.id)
        let lifetime = Int64((method.limits.codeLifetime * 1000).rounded())
        try await method.repositories.signInLinks.replace(
            with: SignInLinkRecord(
                tokenHash: method.hasher.hash(linkToken: token), flowId: context.flow.id,
                applicationId: context.application.id, location: context.location,
                userAgent: context.clientName ?? previous?.userAgent ?? context.progress.client.userAgent,
                state: .pending, createdAt: context.now, expiresAt: context.flow.otpExpiresAt ?? context.now + lifetime))
        let base = context.policy.signInLink.linkBase ?? "\(context.audience)/link"
        let link = "\(base.hasSuffix("/") ? String(base.dropLast()) : base)/\(token)"
        let minutes = Int(method.limits.codeLifetime / 60)
        if channel(for: destination) == .sms {
            return MessageTemplates.signInLinkSMS(link: link, code: code, application: context.application.name)
        }
        return MessageTemplates.signInLink(
            link: link, code: code, minutes: minutes, template: context.policy.emailTemplates?.signInLink,
            application: context.application.name)
    }

    func codeAccepted(destination: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        try await proved(destination: destination, &method)
    }
}
