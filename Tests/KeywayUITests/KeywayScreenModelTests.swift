import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// Step documents for the model's tests.
enum ModelSteps {
    static func code(_ traceId: String) -> String {
        Steps.json(
            "enterCode",
            payload: #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"2030-01-01T00:10:00Z","resendAt":"2020-01-01T00:00:30Z","channel":"email","attemptsRemaining":5}"#,
            actions: [
                Steps.action("submitCode", "code", label: "Continue", fields: Steps.codeField),
                Steps.action("resend", "resend", label: "Send a new code"),
            ], traceId: traceId)
    }

    static func manage(_ traceId: String) -> String {
        Steps.json(
            "manageAccount",
            payload: #"{"methods":[],"devices":[{"id":"dev_1","name":"Laptop","hardwareBacked":false,"createdAt":"2026-11-24T10:00:00Z","trustedUntil":"2026-12-24T10:00:00Z"}]}"#,
            actions: [
                Steps.action(
                    "revokeDevice", "manage/revokeDevice", label: "Stop trusting a device",
                    fields: #"[{"name":"deviceId","type":"select","required":true,"label":"Device","options":[{"value":"dev_1","label":"Laptop"}]}]"#),
                Steps.action(
                    "rename", "manage/rename", label: "Rename",
                    fields: #"[{"name":"displayName","type":"text","required":true,"label":"Name"}]"#),
                Steps.action("finish", "manage/finish", label: "Done"),
            ], traceId: traceId)
    }

    static let approval = Steps.json(
        "awaitApproval",
        payload: #"{"matchingNumber":"47","qrData":"keyway-approve:v1?x","expiresAt":"2030-01-01T00:02:00Z","pollInterval":1}"#,
        actions: [Steps.action("poll", "approval", label: "Check again")])
}

@Suite("The screen model: what it adds to the flow's calls")
@MainActor
struct KeywayScreenModelTests {
    @Test func resendSaysWhetherANewCodeIsOnItsWay() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.code("t1"))
        server.on("POST /v1/flows/flw_1/resend", step: ModelSteps.code("t2"))
        server.on("POST /v1/flows/flw_1/resend", problem: "resend_cooldown", status: 429, action: "wait")
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        model.values["code"] = "12"

        await model.perform(try #require(model.screen.action("resend")))
        #expect(model.screen.kind == .step(.enterCode))
        #expect(model.screen.messages.last == ScreenMessage(level: .info, code: "codeResent", text: "A new code is on its way."))
        #expect(model.values.isEmpty, "a new step starts with empty inputs")

        // The server's cooldown is not an error: the same screen, saying it was too early.
        await model.perform(try #require(model.screen.action("resend")))
        #expect(model.screen.messages.last?.code == "resendCooldown")
        #expect(model.screen.banner == nil)
        #expect(model.screen.countdown(.resendAvailable) != nil)
    }

    @Test func anOperationChecksAndSendsOnlyItsOwnInputsAndAFlowClosedWithoutACodeIsFinished() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.manage("t1"))
        server.on("POST /v1/flows/flw_1/manage/revokeDevice", step: ModelSteps.manage("t2"))
        server.on("POST /v1/flows/flw_1/manage/finish", TransportResponse(status: 204))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        let revoke = try #require(model.screen.action("revokeDevice"))

        await model.perform(revoke)
        #expect(model.screen.inputs.map(\.error) == ["This field is required.", nil], "only the operation's input")
        #expect(server.bodies(to: "POST /v1/flows/flw_1/manage/revokeDevice").isEmpty, "nothing was sent")

        model.values["deviceId"] = "dev_1"
        await model.perform(revoke)
        #expect(server.bodies(to: "POST /v1/flows/flw_1/manage/revokeDevice") == [["deviceId": "dev_1"]])
        #expect(model.screen.kind == .step(.manageAccount))

        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.kind == .finished)
        #expect(model.tokens == nil)
    }

    @Test func togglesAreSentAsTheServerReadsThem() async throws {
        let server = StubTransport()
        server.on(
            "POST /v1/flows",
            step: Steps.json(
                "form", payload: #"{"formId":"profile","title":"About you"}"#,
                actions: [
                    Steps.action(
                        "submitForm", "form", label: "Continue",
                        fields: #"[{"name":"name","type":"text","required":true,"label":"Name"},{"name":"news","type":"checkbox","required":false,"label":"News"}]"#)
                ]))
        server.on("POST /v1/flows/flw_1/form", TransportResponse(status: 204))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        model.values = ["name": "Ada", "news": "y"]
        await model.perform(try #require(model.screen.primaryAction))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/form") == [["name": "Ada", "news": "true"]])
    }

    @Test func cancellingLeavesTheFlowAndWaitingIsOnlyForWaitingScreens() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.code("t1"))
        server.on("DELETE /v1/flows/flw_1", TransportResponse(status: 204))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        let shown = model.screen
        await model.waitForFlow()
        #expect(model.screen == shown, "a code screen does not wait")

        await model.cancel()
        #expect(model.screen.kind == .idle)
        #expect(server.bodies(to: "DELETE /v1/flows/flw_1").count == 1)
    }

    @Test func leavingCancelsARunningFlowOnceAndNothingWhenIdle() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.code("t1"))
        server.on("DELETE /v1/flows/flw_1", TransportResponse(status: 204))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.leave()
        #expect(server.requests(to: "DELETE /v1/flows/flw_1").isEmpty, "nothing runs: nothing to cancel")

        await model.start(identifier: "a@example.com")
        model.values["code"] = "123"
        await model.leave()
        #expect(model.screen.kind == .idle)
        #expect(model.values.isEmpty)
        #expect(server.requests(to: "DELETE /v1/flows/flw_1").count == 1)
        await model.leave()
        #expect(server.requests(to: "DELETE /v1/flows/flw_1").count == 1, "left once")
    }

    @Test func waitingForAnApprovalShowsWhereTheFlowWent() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.approval)
        server.on("POST /v1/flows/flw_1/approval", problem: "approval_denied", status: 403, action: "abort")
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        #expect(model.screen.isWaiting)

        // The SDK polls by itself; the model follows until the flow moves on.
        await model.waitForFlow()
        #expect(model.screen.kind == .ended)
        #expect(model.screen.banner?.code == .approvalDenied)
        #expect(model.screen.banner?.traceID == "trace-problem")
    }

    @Test func accountManagementNeedsSomeoneSignedIn() async throws {
        let server = StubTransport()
        let keyway = try server.keyway()
        await #expect(throws: SessionError.noAccessTokenPresent) {
            try await KeywayScreenModel(keyway: keyway).startAccountManagement()
        }
        let model = KeywayScreenModel(keyway: keyway)
        await #expect(throws: SessionError.noAccessTokenPresent) { try await model.startAccountManagement() }
        #expect(model.screen.kind == .idle)
    }
}
