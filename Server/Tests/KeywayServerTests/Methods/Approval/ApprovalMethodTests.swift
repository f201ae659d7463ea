import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Approvals by another device: offered when there is an approver; the waiting step")
struct ApprovalMethodTests {
    let method = ApprovalMethod()

    @Test func aSecondFactorOnlyAndOnlyWithAnApprover() {
        var context = FlowContexts.context()
        #expect(!method.isEnrolled(context))
        context.approverCount = 1
        #expect(method.isEnrolled(context))
        #expect(method.canBeSecondFactor && !method.canBePrimary)
        #expect(!(method as any FlowMethod is any ReverifyingMethod) && !method.canEnrol(context))
    }

    @Test func theWaitingStepCarriesTheNumberTheQRDataAndTheExpiry() throws {
        let context = FlowContexts.context()
        let sealed = try FlowContexts.secrets.seal(Array("kqr_secret".utf8), purpose: "approval:flw_1")
        let active = try ActiveMethod(
            .deviceApproval, purpose: .secondFactor,
            state: ApprovalStage(approvalId: "apr_1", sealedSecret: sealed, matchingNumber: "42", expiresAt: FlowContexts.now + 60_000))
        let draft = FlowContexts.step(method, active, context)
        guard case .awaitApproval(let payload) = draft.payload else { throw StepMismatch(draft.payload) }
        #expect(payload.matchingNumber == "42")
        #expect(payload.expiresAt == Date(epochMilliseconds: FlowContexts.now + 60_000))
        let qr = try #require(ApprovalQRData(payload.qrData.revealed))
        #expect(qr.approvalID == "apr_1" && qr.flowID == "flw_1" && qr.secret == "kqr_secret")
        #expect(draft.actions.map(\.name) == ["poll"])
        #expect(draft.messages.first?.text.contains("42") == true)

        // A secret sealed to another flow does not open here.
        let elsewhere = try ActiveMethod(
            .deviceApproval, purpose: .secondFactor,
            state: ApprovalStage(
                approvalId: "apr_1", sealedSecret: try FlowContexts.secrets.seal(Array("x".utf8), purpose: "approval:flw_2")))
        #expect(FlowContexts.step(method, elsewhere, context).payload == .none(.awaitApproval))
    }
}
