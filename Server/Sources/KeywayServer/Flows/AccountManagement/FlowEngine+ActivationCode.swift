import Foundation
import KeywayProtocol

/// Account management's code for another device: where the application uses PowerAuth device
/// activation, a signed-in user makes an activation code (automatic commit, ten minutes) after a
/// fresh verification — the code lets a new device sign as them — and the account step shows it
/// until the next operation.
extension FlowEngine {
    /// The operation that makes an activation code for another device of the user.
    static let activationCodeOperation = ManageOperation(
        name: "createActivationCode", label: "Activate another device", needsReverification: true)

    /// How long a code made in account management lives.
    static let accountActivationCodeLifetime = 600

    /// Makes the code in the flow's transaction and keeps it, sealed to the flow, for the step.
    func issueActivationCode(_ context: inout Context, in repositories: Repositories) async throws {
        guard let user = context.user else { throw FlowProblem.internalError }
        let created = try await PowerAuthAdministration.insertCode(
            userId: user.id, applicationId: context.application.id, lifetime: Self.accountActivationCodeLifetime,
            otp: nil, commit: .automatic, name: nil, secrets: powerAuthSecrets, now: context.now, in: repositories)
        let kept = FlowProgress.SealedActivationCode(
            sealedQRPayload: try secrets.seal(Array(created.qrPayload.utf8), purpose: Self.activationCodePurpose(context)),
            expiresAt: context.now + Int64(Self.accountActivationCodeLifetime) * 1000)
        context.progress.management?.issuedActivationCode = kept
        context.progress.stage = .manageAccount
        logger.notice(
            "powerauth: activation code created in account management",
            metadata: ["user": "\(user.id)", "activation": "\(created.activationId)"])
    }

    /// The code kept for the account step, opened; `nil` when there is none or it expired.
    func issuedActivationCode(_ context: Context) -> IssuedActivationCode? {
        guard let kept = context.progress.management?.issuedActivationCode, context.now < kept.expiresAt,
            let opened = try? secrets.open(kept.sealedQRPayload, purpose: Self.activationCodePurpose(context))
        else { return nil }
        let qrPayload = String(decoding: opened, as: UTF8.self)
        return IssuedActivationCode(
            activationCode: Sensitive(String(qrPayload.prefix { $0 != "#" })), qrPayload: Sensitive(qrPayload),
            expiresAt: Date(epochMilliseconds: kept.expiresAt))
    }

    private static func activationCodePurpose(_ context: Context) -> String {
        "account-activation-code:\(context.flow.id)"
    }
}
