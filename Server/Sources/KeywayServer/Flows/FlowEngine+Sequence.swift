import Foundation
import KeywayProtocol

/// The sequence every flow follows — identify, primary method, second factor, device trust,
/// completion — with its sign-up and account-management variants. Which methods are open at
/// each point is asked of the method modules (``MethodRegistry``).
extension FlowEngine {
    // MARK: Choosing methods

    /// The primary methods open to the identifier, in the policy's order.
    func primaryOptions(_ context: Context) -> [AuthenticationMethod] {
        let own = context.policy.primaryMethods.filter {
            methods.module($0, as: (any PrimaryMethod).self)?.isPrimaryOption(context) ?? false
        }
        // A family's members (the upstream providers) are chosen in sign-ins: an unknown identity
        // may then sign up.
        guard context.progress.isSignIn else { return own }
        return own + methods.families.flatMap { $0.offeredMembers(context) }
    }

    /// The second factors the user has set up that the policy counts, other than the primary method.
    func enrolledSecondFactors(_ context: Context) -> [AuthenticationMethod] {
        guard context.user != nil else { return [] }
        return context.policy.mfaMethods.filter { method in
            method != context.progress.primaryMethod && (methods.module(method, as: (any SecondFactorMethod).self)?.isEnrolled(context) ?? false)
        }
    }

    /// The second factors that can be set up within the flow.
    func enrollableSecondFactors(_ context: Context) -> [AuthenticationMethod] {
        context.policy.mfaMethods.filter { method in
            method != context.progress.primaryMethod && (methods.module(method, as: (any SecondFactorMethod).self)?.canEnrol(context) ?? false)
        }
    }

    /// The methods that prove again who a signed-in user is.
    func reverificationOptions(_ context: Context) -> [AuthenticationMethod] {
        guard context.user != nil else { return [] }
        return methods.all((any ReverifyingMethod).self).filter { $0.canReverify(context) }.map(\.id)
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
        if context.progress.isSignUp || context.progress.signIn?.startedAsSignUp == true {
            let method: AuthenticationMethod = context.identifier.email != nil ? .emailOtp : .smsOtp
            guard method == .emailOtp || context.policy.primaryMethods.contains(.smsOtp) else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "identifier", reason: "Sign up with an email address.")
                ])
            }
            try await begin(method, purpose: .primary, &context, in: repositories)
            return
        }
        if let trust = deviceTrust,
            try await withMethod(trust.id, purpose: .primary, &context, in: repositories, { try await trust.signsInAlone(&$0) })
        {
            return
        }
        let options = primaryOptions(context)
        guard !options.isEmpty else {
            let reason =
                context.identifier.email != nil
                ? "This application does not sign in with an email address." : "This application does not sign in with a phone number."
            throw FlowProblem.invalidRequest([InvalidField(name: "identifier", reason: reason)])
        }
        try await offer(options, purpose: .primary, skippable: false, &context, in: repositories)
    }

    /// Moves to the stage of `method` for `purpose`.
    func begin(
        _ method: AuthenticationMethod, purpose: MethodPurpose, _ context: inout Context, in repositories: Repositories
    ) async throws {
        guard let module = methods.module(method) else { throw FlowProblem.methodUnavailable }
        context.progress.chosenFrom = nil
        try await beginStage(of: module, for: purpose, &context, in: repositories)
    }

    /// The choice the current method stage can go back to (`anotherMethod`), if any: the one it
    /// was chosen from, while that method's stage for that purpose lasts.
    func alternatives(_ context: Context) -> MethodChoice? {
        guard case .method(let active) = context.progress.stage, let choice = context.progress.chosenFrom,
            choice.purpose == active.purpose, choice.options.count > 1
        else { return nil }
        return choice
    }

    /// Shows a choice, or goes straight to the only method when nothing can be skipped.
    func offer(
        _ options: [AuthenticationMethod], purpose: MethodPurpose, skippable: Bool, _ context: inout Context,
        in repositories: Repositories
    ) async throws {
        if options.count == 1, !skippable {
            try await begin(options[0], purpose: purpose, &context, in: repositories)
            return
        }
        context.progress.stage = .choosing(MethodChoice(options: options, purpose: purpose, skippable: skippable))
    }

    // MARK: Successes

    /// Records that `method` succeeded for the current purpose (adding `amr` to the session),
    /// then moves on. A method that set something up has written it already.
    func proved(_ method: FlowMethodID, amr: String, _ context: inout Context, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        context.progress.chosenFrom = nil
        switch context.progress.purpose {
        case .primary:
            if context.progress.signIn?.startedAsSignUp == true, var guest = context.progress.guest,
                guest.signsIn != true
            {
                // A guest's sign-up proved the identifier of an existing account: the user
                // chooses to sign in to it or to stay a guest (`accountExists`).
                guest.pendingProof = Proof(method: method, role: .primary, amr: amr, at: context.now)
                context.progress.guest = guest
                context.progress.stage = .accountExists
                return nil
            }
            if context.progress.signIn?.startedAsSignUp == true {
                context.progress.signIn?.startedAsSignUp = false
                if !context.policy.primaryMethods.contains(method) {
                    // The code proved the address, which is not a way in under this policy: the
                    // sign-in goes on with the policy's own methods.
                    try await beginPrimary(&context, in: repositories)
                    return nil
                }
            }
            context.progress.prove(method, role: .primary, amr: amr, at: context.now)
            if context.progress.isSignIn {
                if let problem = try await signedInUser(by: method, &context, in: repositories) { return problem }
            }
        case .secondFactor, .enrolment:
            context.progress.prove(method, role: .secondFactor, amr: amr, at: context.now)
        case .reverification:
            context.progress.prove(method, role: .reverification, amr: amr, at: context.now)
            return try await runPendingOperation(&context, in: repositories)
        default:
            throw FlowProblem.internalError
        }
        return try await advance(&context, in: repositories)
    }

    /// After the primary method of a sign-in: the account (created on a first sign-in of a dev
    /// application), refused when blocked, and the attempt's risk.
    private func signedInUser(by method: FlowMethodID, _ context: inout Context, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        if context.user == nil, let existing = try await repositories.users.find(
            projectId: context.application.projectId, identifier: context.identifier)
        {
            // Another flow for the same new identifier created the account since this one began.
            context.user = existing
            context.flow.userId = existing.id
        }
        if context.user == nil {
            // Only a dev application creates accounts on a first sign-in; elsewhere the method
            // cannot have succeeded without an account.
            guard context.policy.autoCreateUsers, methods.worksWithoutEnrolment(method) else {
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
            context.progress.signIn?.createdUser = true
        }
        guard let user = context.user else { throw FlowProblem.internalError }
        if user.isBlocked {
            context.flow.state = .failed
            return .userBlocked
        }
        context.progress.risk = try await assessRisk(context, user: user, in: repositories)
        return nil
    }

    /// Picks the next step once the current one succeeded, or completes the flow, as
    /// ``FlowSequence`` decides from the facts gathered here.
    func advance(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        switch FlowSequence.next(try await sequenceFacts(&context, in: repositories)) {
        case .manageAccount:
            context.progress.stage = .manageAccount
        case .form:
            context.progress.stage = .form
        case .setUp(let id):
            guard let method = methods.module(id, as: (any RequiredAtSignUpMethod).self) else {
                throw FlowProblem.internalError
            }
            try method.beginSignUp(&context)
        case .proveDevice:
            guard let trust = deviceTrust else { throw FlowProblem.internalError }
            try await beginStage(of: trust, for: .secondFactor, &context, in: repositories)
        case .secondFactor(let methods, let skippable):
            try await offer(methods, purpose: .secondFactor, skippable: skippable, &context, in: repositories)
        case .enrolment(let methods, let skippable):
            context.progress.enrolmentOffered = true
            try await offer(methods, purpose: .enrolment, skippable: skippable, &context, in: repositories)
        case .secondFactorUnavailable:
            context.flow.state = .failed
            return .secondFactorUnavailable
        case .offer(let id):
            guard let method = methods.module(id, as: (any OfferingMethod).self) else { throw FlowProblem.internalError }
            context.progress.offeredAfterSignIn = true
            try method.beginOffer(&context)
        case .enrolDevice:
            guard let trust = deviceTrust else { throw FlowProblem.internalError }
            try await beginStage(of: trust, for: .enrolment, &context, in: repositories)
        case .complete:
            return try await complete(&context, in: repositories)
        }
        return nil
    }

    /// What ``FlowSequence`` reads, as the flow stands. The database is asked only what the
    /// decision can reach: the device the client named and how many devices could approve, only
    /// while a sign-in's second factor is due (and the latter only when the device cannot prove
    /// itself).
    private func sequenceFacts(_ context: inout Context, in repositories: Repositories) async throws -> FlowSequence.Facts {
        let mode: FlowSequence.Facts.Mode
        switch context.progress.mode {
        case .manage:
            return FlowSequence.Facts(mode: .manage, mfaMode: context.policy.mfaMode)
        case .signUp(let draft):
            let needsForm = context.policy.hasSignupForm && draft.profile == nil
            // A sign-up through a provider has its way in: no method is required to be set up.
            let setUp = needsForm || methods.externalIdentities.contains(where: { $0.isSigningUp(context) })
                ? nil : methods.all((any RequiredAtSignUpMethod).self).first(where: { $0.isRequiredAtSignUp(context) })?.id
            mode = .signUp(needsForm: needsForm, methodToSetUp: setUp)
        case .signIn:
            mode = .signIn
        }
        var facts = FlowSequence.Facts(mode: mode, mfaMode: effectiveMFAMode(context))
        facts.secondFactorDone = context.progress.secondFactorDone
        facts.secondFactorSkipped = context.progress.secondFactorSkipped
        facts.enrolmentOffered = context.progress.enrolmentOffered
        if case .signUp(let needsForm, let setUp) = mode, needsForm || setUp != nil { return facts }
        if facts.secondFactorDue {
            if context.progress.isSignIn {
                if let trust = deviceTrust {
                    facts.deviceCanProve = try await withMethod(
                        trust.id, purpose: .secondFactor, &context, in: repositories
                    ) { try await trust.canProve(&$0) }
                }
                if !facts.deviceCanProve {
                    for method in methods.all((any DueSecondFactorLoader).self) {
                        try await method.loadWhenDue(into: &context, in: repositories)
                    }
                    facts.enrolledSecondFactors = enrolledSecondFactors(context)
                }
            }
            facts.enrollableSecondFactors = enrollableSecondFactors(context)
        }
        if !context.progress.offeredAfterSignIn {
            facts.offerBeforeCompletion = methods.all((any OfferingMethod).self).first(where: { $0.offersAfterSignIn(context) })?.id
        }
        facts.deviceCanEnrol = deviceTrust?.canEnrol(context) ?? false
        return facts
    }

    // MARK: Completing

    /// Creates the account of a sign-up, opens the session and issues the authorization code.
    func complete(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        var newUser = context.progress.signIn?.createdUser ?? false
        let user: UserRecord
        if let draft = context.progress.signUpDraft {
            user = try await createAccount(draft, &context, in: repositories)
            newUser = true
        } else {
            guard let existing = context.user else { throw FlowProblem.internalError }
            user = existing
        }
        for source in methods.externalIdentities {
            try await source.linkPendingIdentity(to: user, &context, secrets: secrets, in: repositories)
        }
        var trustedDeviceId: String?
        if let trust = deviceTrust {
            trustedDeviceId = try await withMethod(trust.id, purpose: .enrolment, &context, in: repositories) {
                try await trust.storeEnrolled(for: user, &$0)
            }
        }
        var amr = context.progress.amr
        if amr.isEmpty { amr = ["otp"] }
        let sessionId: String
        if context.progress.isManage, let existing = context.flow.sessionId {
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
                expiresAt: expiresAt, usedAt: nil, createdAt: context.now,
                scope: context.progress.management?.grantedScope ?? context.progress.authorization?.scope,
                nonce: context.progress.authorization?.nonce, redirectURI: context.progress.authorization?.redirectURI))
        context.flow.state = .completed
        context.flow.otpHash = nil
        context.flow.sessionId = sessionId
        context.flow.userId = user.id
        let merged = try guestMerged(into: user, &context)
        context.completion = Completion(
            authCode: authCode, expiresAt: expiresAt, sessionId: sessionId, newUser: newUser,
            trustedDeviceId: trustedDeviceId, guestMerged: merged)
        return nil
    }

    /// Creates the account a sign-up gathered: its identifier, the methods set up in the flow,
    /// the invitation redeemed and the form's answers. Nothing of it stays when a part fails.
    private func createAccount(_ draft: FlowProgress.SignUpDraft, _ context: inout Context, in repositories: Repositories)
        async throws -> UserRecord
    {
        let identifier = context.identifier
        var created = UserRecord(
            id: SecureRandom.identifier(prefix: "usr"), projectId: context.application.projectId,
            email: identifier.email, emailVerified: identifier.email != nil, createdAt: context.now,
            phone: identifier.phone, phoneVerified: identifier.phone != nil)
        // A sign-up through a provider: the provider's address and name, not the flow's identifier.
        var broughtName: String?
        for source in methods.externalIdentities {
            if let name = try await source.applySignUp(to: &created, context, secrets: secrets, in: repositories) {
                broughtName = name
            }
        }
        var guest: UserRecord?
        if let guestId = context.progress.guest?.userId {
            // Upgrading a guest: the account is the guest's row, with its ID and all attached.
            guard let found = try await repositories.users.find(id: guestId), found.isAnonymous else {
                throw FlowProblem.notAGuest
            }
            guest = found
            created.id = found.id
            created.createdAt = found.createdAt
            created.guestApplicationId = found.guestApplicationId
        }
        let credentialMethods = methods.all((any SignUpCredentialMethod).self)
        for method in credentialMethods {
            if let credential = draft.credentials[method.id.rawValue] {
                try method.applyCredential(credential, to: &created)
            }
        }
        if guest != nil {
            guard try await repositories.users.upgradeGuest(created) else { throw FlowProblem.notAGuest }
        } else {
            try await repositories.users.insert(created)
        }
        for method in credentialMethods {
            if let credential = draft.credentials[method.id.rawValue] {
                try await method.accountCreated(credential, user: created, in: repositories)
            }
        }
        if let sealed = draft.sealedInviteCode {
            let code = String(decoding: try secrets.open(sealed, purpose: "invite:\(context.flow.id)"), as: UTF8.self)
            let status = try await directory.redeemInviteCode(
                code, applicationId: context.application.id, userId: created.id, now: context.now, in: repositories)
            guard status == .valid else {
                // Nothing of the account stays: the transaction rolls back.
                throw status == .used ? FlowProblem.inviteCodeUsed : FlowProblem.invalidInviteCode
            }
        }
        var profile = draft.profile ?? [:]
        if let name = broughtName, !name.isEmpty, profile["name"] == nil { profile["name"] = name }
        if !profile.isEmpty {
            // A guest's profile keeps what it had; the form's answers are added over it.
            var merged: [String: ProfileValue] = [:]
            if guest != nil { merged = try await repositories.profiles.profile(userId: created.id) }
            merged.merge(profile.mapValues { ProfileValue.string($0) }) { _, answer in answer }
            try await repositories.profiles.setProfile(merged, userId: created.id, at: context.now)
        }
        context.user = created
        context.flow.userId = created.id
        // The credentials are the account's now: none stays in the flow's row.
        var cleared = draft
        cleared.credentials = [:]
        context.progress.signUpDraft = cleared
        return created
    }
}

extension FlowEngine {
    /// The method that trusts devices, when the server runs one.
    var deviceTrust: (any DeviceTrustMethod)? { methods.all((any DeviceTrustMethod).self).first }
}
