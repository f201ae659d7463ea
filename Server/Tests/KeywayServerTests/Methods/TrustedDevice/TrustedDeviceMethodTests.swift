import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Trusted devices as a method: never chosen, never in a policy; their two steps")
struct TrustedDeviceMethodTests {
    let method = TrustedDeviceMethod()

    @Test func neverAPolicyMethodNorAChoice() {
        #expect(!method.canBePrimary && !method.canBeSecondFactor)
        #expect(
            !MethodRegistry.standard.canBePrimary(.trustedDevice) && !MethodRegistry.standard.canBeSecondFactor(.trustedDevice))
        // Never offered as a way in nor counted as a second factor: it has neither capability.
        #expect(!(method as any FlowMethod is any PrimaryMethod) && !(method as any FlowMethod is any SecondFactorMethod))
    }

    @Test func enrollingAndProvingDrawTheirOwnSteps() throws {
        var context = FlowContexts.context()
        context.progress.client.deviceHint = DeviceHint(deviceID: "dev_1", canEnrol: true)
        let enrolling = try ActiveMethod(
            .trustedDevice, purpose: .enrolment, state: TrustedDeviceStage(challenge: "c1", enrolling: true))
        let enrol = FlowContexts.step(method, enrolling, context)
        #expect(enrol.payload == .deviceEnroll(DeviceEnrollPayload(challenge: "c1", audience: "https://id.example.com")))
        #expect(enrol.actions.map(\.name) == ["enrollDevice", "skip"])

        let proving = try ActiveMethod(.trustedDevice, purpose: .secondFactor, state: TrustedDeviceStage(challenge: "c2"))
        let prove = FlowContexts.step(method, proving, context)
        #expect(
            prove.payload
                == .deviceChallenge(DeviceChallengePayload(challenge: "c2", audience: "https://id.example.com", deviceID: "dev_1")))
        #expect(prove.actions.map(\.name) == ["proveDevice", "skip"])
    }
}
