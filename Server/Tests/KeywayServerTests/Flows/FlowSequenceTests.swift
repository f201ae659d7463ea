import KeywayProtocol
import Testing

@testable import KeywayServer

/// The order of a flow's stages, decided without an engine, a database or a method module.
@Suite("The flow sequence: what comes next once a step succeeded")
struct FlowSequenceTests {
    typealias Facts = FlowSequence.Facts

    // MARK: Sign-in

    @Test func aSignInWithoutASecondFactorCompletes() {
        #expect(FlowSequence.next(Facts(mode: .signIn, mfaMode: .off)) == .complete)
        // Nothing to give or set up, and the factor is optional: no silent failure, no step.
        #expect(FlowSequence.next(Facts(mode: .signIn, mfaMode: .optional)) == .complete)
    }

    @Test func aSignInAsksForAFactorTheUserHasSkippableOnlyWhenOptional() {
        var facts = Facts(mode: .signIn, mfaMode: .required)
        facts.enrolledSecondFactors = [.totp, .smsOtp]
        facts.enrollableSecondFactors = [.passkey]
        #expect(FlowSequence.next(facts) == .secondFactor([.totp, .smsOtp], skippable: false))
        facts.mfaMode = .optional
        #expect(FlowSequence.next(facts) == .secondFactor([.totp, .smsOtp], skippable: true))
    }

    @Test func withoutAFactorTheUserHasOneIsSetUpOrARequiredOneFailsTheFlow() {
        var facts = Facts(mode: .signIn, mfaMode: .required)
        facts.enrollableSecondFactors = [.totp]
        #expect(FlowSequence.next(facts) == .enrolment([.totp], skippable: false))
        facts.enrollableSecondFactors = []
        #expect(FlowSequence.next(facts) == .secondFactorUnavailable)
        // An optional factor offered once is not due again.
        var optional = Facts(mode: .signIn, mfaMode: .optional)
        optional.enrollableSecondFactors = [.totp]
        #expect(FlowSequence.next(optional) == .enrolment([.totp], skippable: true))
        optional.enrolmentOffered = true
        #expect(FlowSequence.next(optional) == .complete)
    }

    @Test func aSecondFactorGivenOrSkippedIsNotAskedAgain() {
        var facts = Facts(mode: .signIn, mfaMode: .required)
        facts.enrolledSecondFactors = [.totp]
        facts.secondFactorDone = true
        #expect(FlowSequence.next(facts) == .complete)
        facts.secondFactorDone = false
        facts.secondFactorSkipped = true
        #expect(FlowSequence.next(facts) == .complete)
    }

    // MARK: Device trust

    @Test func aTrustedDeviceProvesItselfInsteadOfTheSecondFactor() {
        var facts = Facts(mode: .signIn, mfaMode: .required)
        facts.deviceCanProve = true
        facts.enrolledSecondFactors = [.totp]
        #expect(FlowSequence.next(facts) == .proveDevice)
        // Not when the factor is not due.
        facts.mfaMode = .off
        #expect(FlowSequence.next(facts) == .complete)
    }

    @Test func aDeviceEnrolsAfterTheSecondFactorThenTheFlowCompletes() {
        var facts = Facts(mode: .signIn, mfaMode: .required)
        facts.secondFactorDone = true
        facts.deviceCanEnrol = true
        #expect(FlowSequence.next(facts) == .enrolDevice)
        // The second factor comes first.
        facts.secondFactorDone = false
        facts.enrolledSecondFactors = [.totp]
        #expect(FlowSequence.next(facts) == .secondFactor([.totp], skippable: false))
    }

    // MARK: Offers

    @Test func aMethodsOfferComesAfterTheSecondFactorAndBeforeTheDevicesEnrolment() {
        var facts = Facts(mode: .signIn, mfaMode: .optional)
        facts.offerBeforeCompletion = .passkey
        facts.deviceCanEnrol = true
        facts.enrolledSecondFactors = [.totp]
        #expect(FlowSequence.next(facts) == .secondFactor([.totp], skippable: true))
        facts.secondFactorDone = true
        #expect(FlowSequence.next(facts) == .offer(.passkey))
        facts.offerBeforeCompletion = nil
        #expect(FlowSequence.next(facts) == .enrolDevice)
    }

    // MARK: Sign-up

    @Test func aSignUpFillsItsFormThenSetsUpItsMethodThenTakesTheSecondFactor() {
        var facts = Facts(mode: .signUp(needsForm: true, methodToSetUp: .password), mfaMode: .required)
        facts.enrollableSecondFactors = [.totp]
        #expect(FlowSequence.next(facts) == .form)
        facts.mode = .signUp(needsForm: false, methodToSetUp: .password)
        #expect(FlowSequence.next(facts) == .setUp(.password))
        facts.mode = .signUp(needsForm: false, methodToSetUp: nil)
        #expect(FlowSequence.next(facts) == .enrolment([.totp], skippable: false))
        facts.secondFactorDone = true
        #expect(FlowSequence.next(facts) == .complete)
    }

    // MARK: Account management

    @Test func accountManagementGoesToItsOwnStepWhateverElseHolds() {
        var facts = Facts(mode: .manage, mfaMode: .required)
        facts.enrolledSecondFactors = [.totp]
        facts.deviceCanEnrol = true
        facts.offerBeforeCompletion = .passkey
        #expect(FlowSequence.next(facts) == .manageAccount)
    }
}
