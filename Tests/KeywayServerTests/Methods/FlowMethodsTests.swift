import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("The method modules: one registration each, and the policy and steps follow from them")
struct FlowMethodsTests {
    @Test func eachModuleIsRegisteredOnceUnderItsID() {
        let ids = FlowMethods.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == [.emailOtp, .smsOtp, .totp, .password, .deviceApproval, .trustedDevice])
        for id in ids { #expect(FlowMethods.module(id)?.id == id) }
        #expect(FlowMethods.module(AuthenticationMethod(rawValue: "passkey")) == nil)
    }

    @Test func thePolicyValidationAsksTheModules() {
        #expect(AuthenticationMethod.supported == [.emailOtp, .smsOtp, .totp, .password])
        #expect(FlowMethods.all.filter(\.canBeSecondFactor).map(\.id) == [.emailOtp, .smsOtp, .totp, .deviceApproval])
        #expect(FlowMethods.all.filter(\.worksWithoutEnrolment).map(\.id) == [.emailOtp, .smsOtp])
    }

    @Test func everyNoticeHasOneText() {
        var seen: [String: Int] = [:]
        for method in FlowMethods.all { for key in method.notices.keys { seen[key, default: 0] += 1 } }
        #expect(seen.values.allSatisfy { $0 == 1 })
        for notice in ["passwordChanged", "totpAdded", "totpRemoved", "smsAdded", "smsRemoved", "deviceRevoked", "devicesRevoked"] {
            #expect(StepBuilder.noticeText(notice) != nil, "\(notice) has a text")
        }
    }

    @Test func theManageStepListsTheMethodsInTheModulesOrder() {
        let context = FlowContexts.context(
            user: FlowContexts.user(phone: "+14155550123", password: true, totp: true), mode: .manage(FlowProgress.Management()),
            stage: .manageAccount)
        #expect(FlowMethods.all.compactMap { $0.enrolledMethod(context) }.map(\.type) == [.emailOtp, .smsOtp, .totp, .password])
    }
}
