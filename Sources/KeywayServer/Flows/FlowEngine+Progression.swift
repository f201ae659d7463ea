import Foundation
import KeywayProtocol

/// How a flow moves on: which method comes next for this user under this policy, what a success
/// proves, and how a flow completes.
extension FlowEngine {
    // MARK: Choosing methods

    /// The primary methods open to the identifier: email codes need an email address, SMS codes
    /// a phone number. They never depend on the account, so they reveal nothing about it.
    func primaryOptions(_ context: Context) -> [AuthenticationMethod] {
        context.policy.primaryMethods.filter { method in
            switch method {
            case .emailOtp: context.identifier.email != nil
            case .smsOtp: context.identifier.phone != nil
            case .password, .totp: true
            default: false
            }
        }
    }

    /// The second factors the user has set up that the policy counts, other than the primary method.
    func enrolledSecondFactors(_ context: Context) -> [AuthenticationMethod] {
        guard let user = context.user else { return [] }
        return context.policy.mfaMethods.filter { method in
            guard method != context.progress.primaryMethod else { return false }
            switch method {
            case .emailOtp: return user.email != nil && user.emailVerified
            case .smsOtp: return user.verifiedPhone != nil
            case .totp: return user.hasTotp
            case .deviceApproval: return context.approverCount > 0
            default: return false
            }
        }
    }

    /// The second factors that can be set up within the flow.
    func enrollableSecondFactors(_ context: Context) -> [AuthenticationMethod] {
        let primary = context.progress.primaryMethod
        return context.policy.mfaMethods.filter { method in
            guard method != primary else { return false }
            switch method {
            case .totp: return !(context.user?.hasTotp ?? false) && context.progress.pendingTotpSecret == nil
            case .smsOtp: return context.user?.verifiedPhone == nil && context.identifier.phone == nil
            default: return false
            }
        }
    }

    /// The methods that prove again who a signed-in user is.
    func reverificationOptions(_ context: Context) -> [AuthenticationMethod] {
        guard let user = context.user else { return [] }
        var options: [AuthenticationMethod] = []
        if user.email != nil, user.emailVerified { options.append(.emailOtp) }
        if user.verifiedPhone != nil { options.append(.smsOtp) }
        if user.hasTotp { options.append(.totp) }
        if user.passwordHash != nil { options.append(.password) }
        return options
    }

    /// The MFA mode that applies now: elevated risk makes an optional second factor required.
    func effectiveMFAMode(_ context: Context) -> MFAMode {
        let mode = context.policy.mfaMode
        if mode == .optional, let risk = context.progress.risk, risk.level != "low" { return .required }
        return mode
    }

    // MARK: Starting a method

    /// The first step of a new flow: verify the identifier (sign-up) or choose a primary method.
    func beginPrimary(_ context: inout Context, in repositories: Repositories) async throws {
        // A sign-up verifies the identifier with a code first; so does a sign-up of an identifier
        // that already has an account (it becomes a sign-in), so the answer does not tell them apart.
        if context.progress.mode == .signUp || context.progress.startedAsSignUp == true {
            let method: AuthenticationMethod = context.identifier.email != nil ? .emailOtp : .smsOtp
            guard method == .emailOtp || context.policy.primaryMethods.contains(.smsOtp) else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "identifier", reason: "Sign up with an email address.")
                ])
            }
            try await begin(method, purpose: .primary, &context, in: repositories)
            return
        }
        if try await offerDeviceAlone(&context, in: repositories) { return }
        let options = primaryOptions(context)
        guard !options.isEmpty else {
            let reason =
                context.identifier.email != nil
                ? "This application does not sign in with an email address." : "This application does not sign in with a phone number."
            throw FlowProblem.invalidRequest([InvalidField(name: "identifier", reason: reason)])
        }
        if options.count == 1 {
            try await begin(options[0], purpose: .primary, &context, in: repositories)
        } else {
            context.progress.stage = .selectMethod
            context.progress.purpose = .primary
            context.progress.options = options
            context.progress.skippable = false
        }
    }

    /// Moves to the step of `method` for `purpose`, sending a code where the method needs one.
    func begin(
        _ method: AuthenticationMethod, purpose: MethodPurpose, _ context: inout Context, in repositories: Repositories
    ) async throws {
        context.progress.purpose = purpose
        context.progress.options = []
        context.progress.skippable = false
        switch (method, purpose) {
        case (.totp, .enrolment):
            let secret = OneTimePassword.newSecret()
            context.progress.pendingTotpSecret = try secrets.seal(secret, purpose: "totp")
            context.progress.stage = .setupTotp
        case (.smsOtp, .enrolment):
            context.progress.stage = .setupSms
        case (.deviceApproval, .secondFactor):
            try await requestApproval(&context, in: repositories)
        case (.totp, _):
            context.progress.stage = .enterTotp
        case (.password, _):
            context.progress.stage = .enterPassword
            context.progress.passwordPurpose = .signIn
        case (.emailOtp, _):
            let destination = purpose == .primary ? context.identifier.email : context.user?.email
            guard let destination else { throw FlowProblem.methodUnavailable }
            try await sendCode(channel: .email, to: destination, &context, in: repositories)
        case (.smsOtp, _):
            let destination = purpose == .primary ? context.identifier.phone : context.user?.verifiedPhone
            guard let destination else { throw FlowProblem.methodUnavailable }
            try await sendCode(channel: .sms, to: destination, &context, in: repositories)
        default:
            throw FlowProblem.methodUnavailable
        }
    }

    /// Issues a new code to `destination` and moves to `enterCode`. The code goes out only where
    /// it can lead somewhere; otherwise a notice without a code goes out instead, the step looks
    /// the same and no code can match, so the answers do not reveal whether the identifier has an
    /// account.
    func sendCode(
        channel: CodeChannel, to destination: String, deliverable: Bool = true, _ context: inout Context,
        in repositories: Repositories
    ) async throws {
        try await consumeForIdentifier(
            "send-id", Self.identifierKey(projectId: context.application.projectId, identifier: context.flow.identifier),
            clientHash: context.addressHash, userId: context.user?.id, limit: limits.rateLimits.codeSendsPerIdentifier,
            now: context.now, in: repositories)
        if let address = context.addressHash {
            try await consume(
                "send-ip", address, limit: limits.rateLimits.codeSendsPerAddress, now: context.now, in: repositories)
        }
        let code = OneTimeCodeHasher.generate(digits: limits.codeLength)
        let deliver =
            deliverable
            && (context.progress.mode != .signIn || context.user != nil
                || (context.policy.autoCreateUsers && context.progress.purpose == .primary))
        context.flow.otpHash = deliver ? hasher.hash(code: code, flowId: context.flow.id) : nil
        context.flow.otpExpiresAt = context.now + milliseconds(limits.codeLifetime)
        context.flow.resendAt = context.now + milliseconds(limits.resendCooldown)
        context.progress.stage = .enterCode
        context.progress.codeChannel = channel
        context.progress.codeDestination = destination
        if deliver {
            let minutes = Int(limits.codeLifetime / 60)
            let text = MessageTemplates.signInCode(code, minutes: minutes)
            context.outgoing.append(
                OutgoingMessage(
                    channel: channel, to: destination, code: Sensitive(code), subject: text.subject, body: text.body))
        } else {
            // No account (or a phone number that is someone else's): a notice without a code takes
            // the same path, so neither the answer nor its timing tells the cases apart.
            let text = deliverable ? MessageTemplates.noAccount() : MessageTemplates.phoneInUse()
            context.outgoing.append(
                OutgoingMessage(channel: channel, to: destination, code: nil, subject: text.subject, body: text.body))
        }
    }

    // MARK: Successes

    /// Records that `method` succeeded for the current purpose, then moves on.
    func succeeded(_ method: AuthenticationMethod, _ context: inout Context, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        let amr = Self.amr(for: method)
        switch context.progress.purpose {
        case .primary:
            if context.progress.startedAsSignUp == true {
                context.progress.startedAsSignUp = nil
                if !context.policy.primaryMethods.contains(method) {
                    // The code proved the address, which is not a way in under this policy: the
                    // sign-in goes on with the policy's own methods.
                    try await beginPrimary(&context, in: repositories)
                    return nil
                }
            }
            context.progress.primaryDone = true
            context.progress.primaryMethod = method
            context.progress.amr.append(amr)
            if context.progress.mode == .signIn {
                if context.user == nil {
                    // Only a dev application creates accounts on a first sign-in; elsewhere the
                    // method cannot have succeeded without an account.
                    guard context.policy.autoCreateUsers, method == .emailOtp || method == .smsOtp else {
                        throw FlowProblem.internalError
                    }
                    let user = UserRecord(
                        id: SecureRandom.identifier(prefix: "usr"), projectId: context.application.projectId,
                        email: context.identifier.email, emailVerified: context.identifier.email != nil,
                        createdAt: context.now, phone: context.identifier.phone,
                        phoneVerified: context.identifier.phone != nil)
                    try await repositories.users.insert(user)
                    context.user = user
                    context.flow.userId = user.id
                    context.progress.createdUser = true
                } else if var user = context.user {
                    if method == .emailOtp, !user.emailVerified {
                        user.emailVerified = true
                        try await repositories.users.updateMethods(user)
                    }
                    context.user = user
                }
                guard let user = context.user else { throw FlowProblem.internalError }
                if user.isBlocked {
                    context.flow.state = .failed
                    return .userBlocked
                }
                context.progress.risk = try await assessRisk(context, user: user, in: repositories)
            }
        case .secondFactor:
            context.progress.secondFactorDone = true
            context.progress.amr.append(amr)
        case .enrolment:
            try await applyEnrolment(method, &context, in: repositories)
            context.progress.secondFactorDone = true
            context.progress.amr.append(amr)
        case .reverification:
            context.progress.reverifiedAt = context.now
            return try await runPendingOperation(&context, in: repositories)
        default:
            throw FlowProblem.internalError
        }
        return try await advance(&context, in: repositories)
    }

    /// Writes a method that was just set up: to the account when it exists, or keeps it for the
    /// account a sign-up creates.
    func applyEnrolment(_ method: AuthenticationMethod, _ context: inout Context, in repositories: Repositories)
        async throws
    {
        guard context.progress.mode != .signUp, var user = context.user else { return }
        switch method {
        case .totp:
            user.totpSecret = context.progress.pendingTotpSecret
            user.totpLastCounter = context.progress.pendingTotpCounter
            context.progress.pendingTotpSecret = nil
            context.progress.pendingTotpCounter = nil
        case .smsOtp:
            user.phone = context.progress.pendingPhone
            user.phoneVerified = true
            context.progress.pendingPhone = nil
        default:
            return
        }
        try await repositories.users.updateMethods(user)
        context.user = user
        if context.progress.mode == .manage {
            context.progress.notice = method == .totp ? "totpAdded" : "smsAdded"
        }
    }

    /// Picks the next step once the current one succeeded, or completes the flow.
    func advance(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        switch context.progress.mode {
        case .manage:
            context.progress.stage = .manageAccount
            return nil
        case .signUp:
            if context.policy.hasSignupForm, context.progress.profile == nil {
                context.progress.stage = .form
                return nil
            }
            if context.policy.primaryMethods.contains(.password), context.progress.pendingPasswordHash == nil {
                context.progress.stage = .enterPassword
                context.progress.passwordPurpose = .create
                return nil
            }
            let mode = context.policy.mfaMode
            if mode != .off, !context.progress.secondFactorDone, !context.progress.secondFactorSkipped,
                !(mode == .optional && context.progress.enrolmentOffered)
            {
                let options = enrollableSecondFactors(context)
                if !options.isEmpty {
                    context.progress.enrolmentOffered = true
                    try await offer(options, purpose: .enrolment, skippable: mode == .optional, &context, in: repositories)
                    return nil
                }
                if mode == .required {
                    context.flow.state = .failed
                    return .secondFactorUnavailable
                }
            }
            if offerDeviceEnrolment(&context) { return nil }
            return try await complete(&context, in: repositories)
        case .signIn:
            let mode = effectiveMFAMode(context)
            if mode != .off, !context.progress.secondFactorDone, !context.progress.secondFactorSkipped {
                if try await offerDeviceChallenge(&context, in: repositories) { return nil }
                context.approverCount = try await approverCount(context, in: repositories)
                let enrolled = enrolledSecondFactors(context)
                if !enrolled.isEmpty {
                    try await offer(enrolled, purpose: .secondFactor, skippable: mode == .optional, &context, in: repositories)
                    return nil
                }
                let enrollable = enrollableSecondFactors(context)
                if !enrollable.isEmpty {
                    try await offer(enrollable, purpose: .enrolment, skippable: mode == .optional, &context, in: repositories)
                    return nil
                }
                if mode == .required {
                    // Never a silent pass: a required second factor that this account cannot
                    // give nor set up here stops the sign-in.
                    context.flow.state = .failed
                    return .secondFactorUnavailable
                }
            }
            if offerDeviceEnrolment(&context) { return nil }
            return try await complete(&context, in: repositories)
        }
    }

    /// Shows a choice, or goes straight to the only method when nothing can be skipped.
    private func offer(
        _ options: [AuthenticationMethod], purpose: MethodPurpose, skippable: Bool, _ context: inout Context,
        in repositories: Repositories
    ) async throws {
        if options.count == 1, !skippable {
            try await begin(options[0], purpose: purpose, &context, in: repositories)
            return
        }
        context.progress.stage = .selectMethod
        context.progress.purpose = purpose
        context.progress.options = options
        context.progress.skippable = skippable
    }

    // MARK: Completing

    /// Creates the account of a sign-up, opens the session and issues the authorization code.
    func complete(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        var newUser = context.progress.createdUser
        let user: UserRecord
        if context.progress.mode == .signUp {
            let identifier = context.identifier
            let created = UserRecord(
                id: SecureRandom.identifier(prefix: "usr"), projectId: context.application.projectId,
                email: identifier.email, emailVerified: identifier.email != nil, createdAt: context.now,
                phone: identifier.phone ?? context.progress.pendingPhone,
                phoneVerified: identifier.phone != nil || context.progress.pendingPhone != nil,
                passwordHash: context.progress.pendingPasswordHash, totpSecret: context.progress.pendingTotpSecret,
                totpLastCounter: context.progress.pendingTotpCounter)
            try await repositories.users.insert(created)
            if let sealed = context.progress.sealedInviteCode {
                let code = String(decoding: try secrets.open(sealed, purpose: "invite:\(context.flow.id)"), as: UTF8.self)
                let status = try await directory.redeemInviteCode(
                    code, applicationId: context.application.id, userId: created.id, now: context.now, in: repositories)
                guard status == .valid else {
                    // Nothing of the account stays: the transaction rolls back.
                    throw status == .used ? FlowProblem.inviteCodeUsed : FlowProblem.invalidInviteCode
                }
            }
            if let profile = context.progress.profile, !profile.isEmpty {
                try await repositories.profiles.setProfile(
                    profile.mapValues { ProfileValue.string($0) }, userId: created.id, at: context.now)
            }
            user = created
            newUser = true
            context.user = created
            context.flow.userId = created.id
            context.progress.pendingPasswordHash = nil
            context.progress.pendingTotpSecret = nil
        } else {
            guard let existing = context.user else { throw FlowProblem.internalError }
            user = existing
        }
        let trustedDeviceId = try await storeEnrolledDevice(&context, user: user, in: repositories)
        var amr: [String] = []
        for method in context.progress.amr where !amr.contains(method) { amr.append(method) }
        if context.progress.secondFactorDone, !amr.contains("mfa") { amr.append("mfa") }
        if amr.isEmpty { amr = ["otp"] }
        let sessionId: String
        if context.progress.mode == .manage, let existing = context.flow.sessionId {
            sessionId = existing
        } else {
            sessionId = SecureRandom.identifier(prefix: "ses")
            try await repositories.sessions.insert(
                SessionRecord(
                    id: sessionId, userId: user.id, applicationId: context.application.id, amr: amr,
                    authTime: context.now, createdAt: context.now, revokedAt: nil,
                    clientAddressHash: context.addressHash))
        }
        let authCode = SecureRandom.token(prefix: "kac")
        let expiresAt = context.now + milliseconds(limits.authorizationCodeLifetime)
        try await repositories.authorizationCodes.insert(
            AuthorizationCodeRecord(
                codeHash: sha256Hex(authCode), applicationId: context.application.id, userId: user.id,
                sessionId: sessionId, flowId: context.flow.id, codeChallenge: context.flow.codeChallenge,
                expiresAt: expiresAt, usedAt: nil, createdAt: context.now, scope: context.progress.grantedScope))
        context.flow.state = .completed
        context.flow.otpHash = nil
        context.flow.sessionId = sessionId
        context.flow.userId = user.id
        context.completion = Completion(
            authCode: authCode, expiresAt: expiresAt, sessionId: sessionId, newUser: newUser,
            trustedDeviceId: trustedDeviceId)
        return nil
    }

    /// RFC 8176 method references.
    static func amr(for method: AuthenticationMethod) -> String {
        switch method {
        case .password: "pwd"
        case .smsOtp: "sms"
        default: "otp"
        }
    }
}
