import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("The method modules: one registration each, and the policy and steps follow from them")
struct FlowMethodsTests {
    @Test func eachModuleIsRegisteredOnceUnderItsID() {
        let ids = MethodRegistry.standard.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(
            ids == [
                .emailOtp, .smsOtp, .signInLink, .totp, .passwordReset, .passkey, .password, .deviceApproval, .trustedDevice,
            ])
        for id in ids { #expect(MethodRegistry.standard.module(id)?.id == id) }
        #expect(MethodRegistry.standard.module(AuthenticationMethod(rawValue: "smartcard")) == nil)
    }

    @Test func thePolicyValidationAsksTheModules() {
        #expect(MethodRegistry.standard.primaryMethods == [.emailOtp, .smsOtp, .signInLink, .totp, .passkey, .password])
        #expect(
            MethodRegistry.standard.all.filter(\.canBeSecondFactor).map(\.id) == [.emailOtp, .smsOtp, .totp, .passkey, .deviceApproval])
        #expect(MethodRegistry.standard.all.map(\.id).filter(MethodRegistry.standard.worksWithoutEnrolment) == [.emailOtp, .smsOtp, .signInLink])
    }

    @Test func whatAMethodReadsOfTheUserIsItsOwnAndKeptUnderItsID() {
        #expect(MethodRegistry.standard.all((any MethodDataLoader).self).map(\.id) == [.passkey, .trustedDevice])
        var context = FlowContexts.context()
        #expect(context.passkeys.isEmpty && context.methodData.isEmpty)
        context.trustedDevices = []
        #expect(context.methodData.keys.map(\.rawValue) == ["trustedDevice"])
    }

    @Test func anOperationKeepsOnlyWhatItReadsAndRefusesAFieldOfTheWrongType() throws {
        let body = JSONValue.object(["passkeyId": .string("pk_1"), "name": .string("Laptop"), "junk": .string("x")])
        #expect(try PasskeyMethod().readInput(body) == .object(["passkeyId": .string("pk_1"), "name": .string("Laptop")]))
        #expect(try TrustedDeviceMethod().readInput(body) == .object([:]))
        #expect(throws: FlowProblem.self) { try PasskeyMethod().readInput(.object(["passkeyId": .number(5)])) }
        #expect(throws: FlowProblem.self) { try ManageInput(.object(["sessionId": .bool(true)])) }
    }

    @Test func everyNoticeHasOneText() {
        var seen: [String: Int] = [:]
        for method in MethodRegistry.standard.all((any AccountOperationsMethod).self) { for key in method.notices.keys { seen[key, default: 0] += 1 } }
        #expect(seen.values.allSatisfy { $0 == 1 })
        for notice in ["passwordChanged", "totpAdded", "totpRemoved", "smsAdded", "smsRemoved", "deviceRevoked", "devicesRevoked"] {
            #expect(MethodRegistry.standard.noticeTexts[notice] != nil, "\(notice) has a text")
        }
    }

    @Test func theManageStepListsTheMethodsInTheModulesOrder() {
        let context = FlowContexts.context(
            user: FlowContexts.user(phone: "+14155550123", password: true, totp: true), mode: .manage(FlowProgress.Management()),
            stage: .manageAccount)
        #expect(MethodRegistry.standard.all((any AccountListedMethod).self).compactMap { $0.enrolledMethod(context) }.map(\.type) == [.emailOtp, .smsOtp, .totp, .password])
    }

    @Test func theManageStepOffersEachModulesOperationsThenFinish() {
        var policy = FlowPolicy(primaryMethods: [.emailOtp, .password])
        policy.mfaMethods = [.totp, .smsOtp]
        let everything = FlowContexts.context(
            user: FlowContexts.user(phone: "+14155550123", password: true, totp: true), policy: policy,
            mode: .manage(FlowProgress.Management()), stage: .manageAccount)
        let offered = FlowEngine.operations(everything, methods: .standard).map(\.operation)
        #expect(offered.map(\.name) == ["setupSms", "removeSms", "setupTotp", "removeTotp", "changePassword", "finish"])
        // Everything that weakens the account, and finishing, needs a fresh verification.
        #expect(offered.filter(\.needsReverification).map(\.name) == offered.map(\.name))

        let fresh = FlowContexts.context(
            user: FlowContexts.user(), policy: policy, mode: .manage(FlowProgress.Management()), stage: .manageAccount)
        let first = FlowEngine.operations(fresh, methods: .standard).map(\.operation)
        #expect(first.map(\.name) == ["setupSms", "setupTotp", "changePassword", "finish"])
        #expect(first.filter { !$0.needsReverification }.map(\.name) == ["setupSms", "setupTotp"])

        let names = MethodRegistry.standard.all((any AccountOperationsMethod).self).flatMap(\.manageOperationNames)
        #expect(Set(names).count == names.count, "an operation belongs to one method")
        #expect(FlowEngine.operations(FlowContexts.context(user: nil), methods: .standard).map(\.operation.name) == ["finish"])
    }
}
