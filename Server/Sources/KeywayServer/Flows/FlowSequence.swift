import KeywayProtocol

/// The order every flow follows once a step succeeded, as a pure function of what the engine
/// knows at that moment: a sign-up's form and the method it must set up before the account
/// exists (a password); then, for sign-ups and sign-ins alike, the second factor — the trusted
/// device the client named proving itself, a factor the user has, or one to set up —; an offer
/// a method makes before a sign-in completes (a passkey); the device's enrolment; completion.
/// Account management goes to its own step. The engine gathers the ``Facts`` (some from the
/// database) and carries out the ``Next`` (`FlowEngine.advance`).
enum FlowSequence {
    /// What the decision reads.
    struct Facts: Sendable, Equatable {
        /// The kind of flow, with what only a sign-up has.
        enum Mode: Sendable, Equatable {
            case signIn
            /// A sign-up: whether its form is still to fill in, and the method it must set up
            /// first (none through an upstream provider, which is its way in).
            case signUp(needsForm: Bool, methodToSetUp: FlowMethodID?)
            /// Account management.
            case manage
        }

        var mode: Mode
        /// The MFA mode that applies now (elevated risk makes an optional second factor required).
        var mfaMode: MFAMode
        var secondFactorDone = false
        var secondFactorSkipped = false
        /// Setting up a second factor was offered already (an optional one is then not due again).
        var enrolmentOffered = false
        /// The trusted device the client named can prove itself instead of a second factor.
        var deviceCanProve = false
        /// The second factors the user has that the policy counts (sign-ins).
        var enrolledSecondFactors: [AuthenticationMethod] = []
        /// The second factors that can be set up within the flow.
        var enrollableSecondFactors: [AuthenticationMethod] = []
        /// The method that offers itself before a sign-in completes, when none has yet.
        var offerBeforeCompletion: FlowMethodID?
        /// The client can enrol its device now (after a second factor, no device proved).
        var deviceCanEnrol = false

        /// Whether the second factor is still due.
        var secondFactorDue: Bool {
            mfaMode != .off && !secondFactorDone && !secondFactorSkipped && !(mfaMode == .optional && enrolmentOffered)
        }
    }

    /// What the flow does next.
    enum Next: Sendable, Equatable {
        /// Account management's step.
        case manageAccount
        /// The sign-up form.
        case form
        /// Set up the method a sign-up needs before its account exists.
        case setUp(FlowMethodID)
        /// The named trusted device proves itself.
        case proveDevice
        /// One of the user's second factors (a choice, or the only one when it cannot be skipped).
        case secondFactor([AuthenticationMethod], skippable: Bool)
        /// Set up a second factor.
        case enrolment([AuthenticationMethod], skippable: Bool)
        /// A required second factor this account can neither give nor set up here: the flow fails.
        case secondFactorUnavailable
        /// A method's offer before the sign-in completes.
        case offer(FlowMethodID)
        /// The client enrols its device.
        case enrolDevice
        /// The flow completes.
        case complete
    }

    /// The next stage.
    static func next(_ facts: Facts) -> Next {
        switch facts.mode {
        case .manage:
            return .manageAccount
        case .signUp(let needsForm, let methodToSetUp):
            if needsForm { return .form }
            if let methodToSetUp { return .setUp(methodToSetUp) }
        case .signIn:
            break
        }
        if facts.secondFactorDue {
            let skippable = facts.mfaMode == .optional
            if facts.deviceCanProve { return .proveDevice }
            if !facts.enrolledSecondFactors.isEmpty { return .secondFactor(facts.enrolledSecondFactors, skippable: skippable) }
            if !facts.enrollableSecondFactors.isEmpty {
                return .enrolment(facts.enrollableSecondFactors, skippable: skippable)
            }
            // Never a silent pass.
            if facts.mfaMode == .required { return .secondFactorUnavailable }
        }
        if let offer = facts.offerBeforeCompletion { return .offer(offer) }
        if facts.deviceCanEnrol { return .enrolDevice }
        return .complete
    }
}
