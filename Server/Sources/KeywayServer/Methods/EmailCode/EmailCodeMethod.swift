import Foundation
import KeywayProtocol

/// Email codes: a one-time code sent to the account's email address. A primary method for an
/// email identifier (from the first visit: the code also verifies the address), a second factor
/// once the address is verified, and a way to prove again who a signed-in user is.
struct EmailCodeMethod: CodeMethod, PrimaryMethod, SecondFactorMethod, ReverifyingMethod, AccountListedMethod {
    let id: FlowMethodID = .emailOtp
    let channel: CodeChannel = .email

    var worksWithoutEnrolment: Bool { true }

    /// Opens the account once its email address is verified.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        user.email != nil && user.emailVerified
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { context.identifier.email != nil }

    func isEnrolled(_ context: FlowEngine.Context) -> Bool {
        context.user.map { $0.email != nil && $0.emailVerified } ?? false
    }

    /// An address is not set up in the flow: it is the account's own.
    func canEnrol(_ context: FlowEngine.Context) -> Bool { false }

    func canReverify(_ context: FlowEngine.Context) -> Bool { isEnrolled(context) }

    /// Where a code for `purpose` goes: the identifier for a first factor, else the account's address.
    private func destination(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> String? {
        purpose == .primary ? context.identifier.email : context.user?.email
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        let masked = destination(for: purpose, context).map(EmailAddress.mask)
        return MethodOption(
            id: id.rawValue, type: id, label: masked.map { "Email a code to \($0)" } ?? "Email a code", destination: masked)
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        guard let destination = destination(for: purpose, method.context) else { throw FlowProblem.methodUnavailable }
        try await method.sendCode(self, to: destination)
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let destination = (try? active.state(as: CodeStage.self))?.destination ?? context.flow.identifier
        CodeStep.build(
            channel: channel, destination: destination, purpose: active.purpose, context, into: &draft,
            limits: resources.limits)
    }

    /// Codes to the account's address need nothing set up.
    func isSetUp(on user: UserRecord) -> Bool { false }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        // The account step is its owner's: the address is shown whole.
        guard let email = context.user?.email else { return nil }
        return EnrolledMethod(
            type: id, label: "Email codes", detail: email,
            isSecondFactor: context.policy.mfaMethods.contains(id))
    }

    /// The code step's routes are shared by the code methods (``FlowEngine/codeRoutes(_:)``).
    func routes(_ routes: FlowInputRoutes) {}

    func codeAccepted(destination: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        // A code sent to the account's address proves the address.
        try await method.verify(destination: destination, by: .email)
        return try await method.prove(amr: "otp")
    }
}
