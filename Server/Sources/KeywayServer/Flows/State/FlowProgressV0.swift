import KeywayProtocol

/// Flow progress as the releases before format versions wrote it: one flat bag of flags and
/// optionals beside a stage name. Only read, to convert flows in flight (``upgraded()``); every
/// member is optional here, so a document missing any of them still converts.
struct FlowProgressV0: Decodable, Sendable, Equatable {
    enum Stage: String, Decodable, Sendable {
        case selectMethod
        case enterCode
        case enterPassword
        case enterTotp
        case setupSms
        case setupTotp
        case form
        case manageAccount
        case deviceEnroll
        case deviceChallenge
        case awaitApproval
    }

    /// What the flow does for the user.
    enum Mode: String, Decodable, Sendable {
        /// Sign in to an existing account (also a sign-up of a known identifier).
        case signIn
        /// Create an account.
        case signUp
        /// Change the methods of a signed-in account.
        case manage
    }

    var mode: Mode?
    var stage: Stage?
    /// What the current stage is for.
    var purpose: MethodPurpose?
    /// The choices of a `selectMethod` stage.
    var options: [AuthenticationMethod]?
    var skippable: Bool?
    /// Where the current code went (`enterCode`), normalized.
    var codeChannel: CodeChannel?
    var codeDestination: String?
    var passwordPurpose: PasswordPurpose?

    /// The primary method used, once it succeeded.
    var primaryMethod: AuthenticationMethod?
    var primaryDone: Bool?
    var secondFactorDone: Bool?
    /// The user chose to skip an optional second factor.
    var secondFactorSkipped: Bool?
    /// Authentication method references for the session (RFC 8176).
    var amr: [String]?

    /// A phone number waiting for its code.
    var pendingPhone: String?
    /// An authenticator secret waiting for its first code, sealed.
    var pendingTotpSecret: String?
    /// The step of the first code accepted for `pendingTotpSecret` (replays are refused).
    var pendingTotpCounter: Int64?
    /// A dev application created the account on this sign-in.
    var createdUser: Bool?
    /// Sign-up: the password chosen, hashed.
    var pendingPasswordHash: String?
    /// Sign-up: the form's answers.
    var profile: [String: String]?
    /// Sign-up: the invitation code to redeem when the account is created, sealed.
    var sealedInviteCode: String?
    /// Sign-up: whether the optional second factor was offered already.
    var enrolmentOffered: Bool?

    /// Account management: the change waiting for a fresh verification.
    var pendingOperation: String?
    /// Account management: when the user last proved who they are in this flow.
    var reverifiedAt: Int64?
    /// Account management: the scope of the access token that opened the flow; the code it ends
    /// with is redeemed for no more than that.
    var grantedScope: String?
    /// A sign-up of an identifier that already has an account: a sign-in that starts, as a
    /// sign-up does, by verifying the identifier with a code, so the first answer is the same.
    var startedAsSignUp: Bool?

    /// A message to show with the next step (`passwordChanged`, `totpAdded`…).
    var notice: String?

    // MARK: Devices

    /// What the client said about device trust when the flow started.
    var deviceHint: DeviceHint?
    /// The client's `User-Agent` at the start, shortened.
    var userAgent: String?
    /// The challenge of the current `deviceEnroll` or `deviceChallenge` stage.
    var deviceChallenge: String?
    /// The hinted device was looked at (proven or refused); it is not offered again.
    var deviceChecked: Bool?
    /// A trusted device proved itself in this flow.
    var deviceProven: Bool?
    /// The client was asked to enrol its device (it did or skipped).
    var deviceEnrolOffered: Bool?
    /// A device enrolled in this flow, written when the flow completes.
    var pendingDevice: TrustedDeviceRecord?
    /// The approval request the flow waits for, and its QR secret (sealed).
    var approvalId: String?
    var sealedApprovalSecret: String?
    var matchingNumber: String?
    var approvalExpiresAt: Int64?
    /// When the client last polled the approval.
    var lastPolledAt: Int64?

    var passwordFailures: Int?
    var totpFailures: Int?
    /// Set when the attempt was flagged.
    var risk: Risk?
}

extension FlowProgressV0 {
    /// The same flow in the current shape: the stage with its own state, the flags and `amr` as
    /// proofs, what a sign-up gathered as its draft.
    func upgraded() throws -> FlowProgress {
        let purpose = purpose ?? .primary
        let mode: FlowProgress.Mode
        switch self.mode ?? .signIn {
        case .signIn:
            mode = .signIn(FlowProgress.SignIn(startedAsSignUp: startedAsSignUp ?? false, createdUser: createdUser ?? false))
        case .signUp:
            var draft = FlowProgress.SignUpDraft(profile: profile, sealedInviteCode: sealedInviteCode)
            if let pendingPasswordHash { try draft.keep(PasswordCredential(hash: pendingPasswordHash), for: .password) }
            // An authenticator or phone number proven already waits for the account; one still
            // being set up stays in its stage.
            if stage != .setupTotp, let pendingTotpSecret {
                try draft.keep(AuthenticatorCredential(sealedSecret: pendingTotpSecret, counter: pendingTotpCounter), for: .totp)
            }
            if stage != .enterCode || purpose != .enrolment, let pendingPhone {
                try draft.keep(PhoneCredential(phone: pendingPhone), for: .smsOtp)
            }
            mode = .signUp(draft)
        case .manage:
            mode = .manage(FlowProgress.Management(grantedScope: grantedScope, pendingOperation: pendingOperation))
        }
        var progress = FlowProgress(mode: mode, stage: try upgradedStage(purpose: purpose))
        progress.proofs = upgradedProofs()
        progress.secondFactorSkipped = secondFactorSkipped ?? false
        progress.enrolmentOffered = enrolmentOffered ?? false
        if let passwordFailures, passwordFailures > 0 { progress.failures[FlowMethodID.password.rawValue] = passwordFailures }
        if let totpFailures, totpFailures > 0 { progress.failures[FlowMethodID.totp.rawValue] = totpFailures }
        progress.client = FlowProgress.ClientDescription(deviceHint: deviceHint, userAgent: userAgent)
        let device = TrustedDeviceProgress(
            checked: deviceChecked ?? false, enrolOffered: deviceEnrolOffered ?? false, pending: pendingDevice)
        if device != TrustedDeviceProgress() { progress.trustedDevice = device }
        progress.notice = notice
        progress.risk = risk
        return progress
    }

    private func upgradedStage(purpose: MethodPurpose) throws -> FlowProgress.Stage {
        switch stage ?? .selectMethod {
        case .selectMethod:
            return .choosing(MethodChoice(options: options ?? [], purpose: purpose, skippable: skippable ?? false))
        case .enterCode:
            let method: FlowMethodID = codeChannel == .sms ? .smsOtp : .emailOtp
            return .method(try ActiveMethod(method, purpose: purpose, state: CodeStage(destination: codeDestination)))
        case .enterPassword:
            return .method(try ActiveMethod(.password, purpose: purpose, state: PasswordStage(purpose: passwordPurpose)))
        case .enterTotp:
            return .method(try ActiveMethod(.totp, purpose: purpose, state: AuthenticatorStage()))
        case .setupTotp:
            return .method(
                try ActiveMethod(.totp, purpose: .enrolment, state: AuthenticatorStage(sealedSecret: pendingTotpSecret)))
        case .setupSms:
            return .method(try ActiveMethod(.smsOtp, purpose: .enrolment, state: CodeStage()))
        case .form:
            return .form
        case .manageAccount:
            return .manageAccount
        case .deviceEnroll:
            return .method(
                try ActiveMethod(
                    .trustedDevice, purpose: .enrolment, state: TrustedDeviceStage(challenge: deviceChallenge, enrolling: true)))
        case .deviceChallenge:
            return .method(
                try ActiveMethod(.trustedDevice, purpose: purpose, state: TrustedDeviceStage(challenge: deviceChallenge)))
        case .awaitApproval:
            return .method(
                try ActiveMethod(
                    .deviceApproval, purpose: .secondFactor,
                    state: ApprovalStage(
                        approvalId: approvalId, sealedSecret: sealedApprovalSecret, matchingNumber: matchingNumber,
                        expiresAt: approvalExpiresAt, lastPolledAt: lastPolledAt)))
        }
    }

    /// The proofs the flags and `amr` stood for. The first `amr` value was the primary method's; a
    /// device's (`hwk`, `swk`) was its proof; in a sign-up, `pwd` after the code was the password
    /// chosen; the rest were second factors.
    private func upgradedProofs() -> [Proof] {
        var proofs: [Proof] = []
        var values = amr ?? []
        if primaryDone == true, !values.isEmpty || mode == .manage {
            if mode != .manage {
                let first = values.removeFirst()
                let method = deviceProven == true && (first == "hwk" || first == "swk") ? .trustedDevice : primaryMethod
                proofs.append(Proof(method: method ?? .emailOtp, role: .primary, amr: first, at: 0))
            }
        }
        for value in values {
            let method: FlowMethodID
            let role: Proof.Role
            switch value {
            case "hwk", "swk":
                method = deviceProven == true ? .trustedDevice : .deviceApproval
                role = .secondFactor
            case "pwd" where mode == .signUp:
                method = .password
                role = .credential
            case "sms":
                method = .smsOtp
                role = .secondFactor
            default:
                method = .totp
                role = .secondFactor
            }
            proofs.append(Proof(method: method, role: role, amr: value, at: 0))
        }
        if secondFactorDone != true {
            // Nothing past the primary method counted as a second factor yet.
            proofs = proofs.map { proof in
                var proof = proof
                if proof.role == .secondFactor { proof.role = .credential }
                return proof
            }
        }
        if let reverifiedAt {
            proofs.append(Proof(method: .password, role: .reverification, amr: "pwd", at: reverifiedAt))
        }
        return proofs
    }
}
