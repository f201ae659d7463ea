import Foundation
import KeywayJOSE
import KeywayProtocol

/// The two ceremonies' answers: a new passkey (`POST passkey/register`) and a passkey's
/// signature (`POST passkey/authenticate`), each checked by ``WebAuthnVerifier`` against the
/// stage's challenge, which any answer replaces.
extension PasskeyMethod {
    /// Takes a new passkey: kept for the account a sign-up creates, or stored on the account.
    func register(_ target: FlowEngine.Target, _ body: RegisterPasskeyRequest, engine: FlowEngine) async throws -> Step {
        let name = try Self.checkedName(body.name)
        return try await engine.run(target) { context, repositories in
            guard let active = context.progress.active(id), active.purpose == .enrolment,
                let state = try? active.state(as: PasskeyStage.self), let challenge = state.challenge,
                let userHandle = state.userHandle
            else { throw FlowProblem.invalidStep }
            guard let relyingParty = Self.relyingParty(context) else { throw FlowProblem.methodUnavailable }
            try await engine.consumeCheck(context, in: repositories)
            try Self.renewChallenge(&context)
            let verified: VerifiedRegistration
            do throws(WebAuthnFailure) {
                verified = try await WebAuthnVerifier(relyingParty: relyingParty).verifyRegistration(
                    body.credential, challenge: Base64URL.decode(challenge) ?? Data(), now: Date(epochMilliseconds: context.now))
            } catch {
                return try await failure(.refused(error), &context, engine: engine, in: repositories)
            }
            let credentialId = Base64URL.encode(verified.credentialID)
            if try await repositories.passkeys.find(projectId: context.application.projectId, credentialId: credentialId) != nil {
                return .passkeyAlreadyRegistered
            }
            let passkey = PasskeyCredentialRecord(
                id: SecureRandom.identifier(prefix: "pky"), userId: context.user?.id ?? "",
                projectId: context.application.projectId, credentialId: credentialId, userHandle: userHandle,
                publicKey: Base64URL.encode(verified.publicKey), algorithm: verified.algorithm.rawValue,
                signCount: Int64(verified.signCount), backupEligible: verified.backupEligible, backedUp: verified.backedUp,
                userVerified: verified.userVerified, transports: Array(verified.transports.prefix(8)),
                aaguid: verified.aaguid.map { String(format: "%02x", $0) }.joined(),
                attestationFormat: String(verified.attestationFormat.prefix(32)),
                attestationTrust: verified.attestationTrust.rawValue,
                name: name ?? Self.defaultName(verified, context.passkeys), createdAt: context.now,
                lastUsedAt: nil, counterRegressedAt: nil)
            if var draft = context.progress.signUpDraft {
                try draft.keep(PasskeyCredentialDraft(passkey: passkey), for: id)
                context.progress.signUpDraft = draft
            } else {
                guard context.user != nil else { throw FlowProblem.internalError }
                guard try await repositories.passkeys.insert(passkey) else { return .passkeyAlreadyRegistered }
                context.passkeys.append(passkey)
                if context.progress.isManage { context.progress.notice = "passkeyAdded" }
            }
            if state.provesSecondFactor == true {
                return try await engine.proved(id, amr: passkey.backupEligible ? "swk" : "hwk", &context, in: repositories)
            }
            return try await engine.advance(&context, in: repositories)
        }
    }

    /// Takes a passkey's signature: the sign-in of the passkey's account (a flow started without
    /// an identifier learns its account here), a second factor, or a fresh verification.
    func authenticate(_ target: FlowEngine.Target, _ body: AuthenticatePasskeyRequest, engine: FlowEngine) async throws
        -> Step
    {
        try await engine.run(target) { context, repositories in
            guard let active = context.progress.active(id), active.purpose != .enrolment,
                let state = try? active.state(as: PasskeyStage.self), let challenge = state.challenge
            else { throw FlowProblem.invalidStep }
            guard let relyingParty = Self.relyingParty(context) else { throw FlowProblem.methodUnavailable }
            try await engine.consumeCheck(context, in: repositories)
            try Self.renewChallenge(&context)
            let credentialId = body.credential.rawId
            guard let stored = try await repositories.passkeys.find(
                projectId: context.application.projectId, credentialId: credentialId),
                Self.mayAnswer(stored, context)
            else {
                return try await failure(.unknownCredential, &context, engine: engine, in: repositories)
            }
            guard let owner = try await repositories.users.find(id: stored.userId) else {
                return try await failure(.unknownCredential, &context, engine: engine, in: repositories)
            }
            try await engine.consumeForIdentifier(
                "check-id", FlowEngine.identifierKey(projectId: context.application.projectId, identifier: owner.id),
                clientHash: context.addressHash, userId: owner.id,
                limit: engine.limits.rateLimits.codeChecksPerIdentifier, now: context.now, in: repositories)
            let verified: VerifiedAssertion
            do throws(WebAuthnFailure) {
                verified = try WebAuthnVerifier(relyingParty: relyingParty).verifyAssertion(
                    body.credential, challenge: Base64URL.decode(challenge) ?? Data(),
                    credential: StoredPasskeyCredential(
                        credentialID: Base64URL.decode(stored.credentialId) ?? Data(),
                        publicKey: Base64URL.decode(stored.publicKey) ?? Data(),
                        signCount: UInt32(clamping: stored.signCount), backupEligible: stored.backupEligible,
                        userHandle: Base64URL.decode(stored.userHandle) ?? Data()))
            } catch {
                if case .counterRegressed = error {
                    try await repositories.passkeys.flagCounterRegression(id: stored.id, at: context.now)
                }
                return try await failure(.refused(error), &context, engine: engine, in: repositories)
            }
            // The counter moves only from the value this check read: a signature raced by
            // another (a cloned authenticator) fails here.
            guard try await repositories.passkeys.used(
                id: stored.id, from: stored.signCount, to: Int64(verified.signCount), backedUp: verified.backedUp,
                at: context.now)
            else {
                return try await failure(.refused(.counterRegressed(stored: UInt32(clamping: stored.signCount), received: verified.signCount)), &context, engine: engine, in: repositories)
            }
            if context.user == nil {
                // A sign-in started without an identifier: the passkey names its account.
                context.user = owner
                context.flow.userId = owner.id
                context.flow.identifier = owner.email ?? owner.phone ?? ""
                context.passkeys = try await repositories.passkeys.all(userId: owner.id)
            }
            let amr = stored.backupEligible ? "swk" : "hwk"
            if active.purpose == .primary {
                context.progress.prove(id, role: .primary, amr: "user", at: context.now)
                // A passkey that verified the user is two factors in one (something the user has,
                // and a biometric or PIN), where the policy counts passkeys as a second factor.
                if verified.userVerified, context.policy.mfaMethods.contains(id) {
                    context.progress.prove(id, role: .secondFactor, amr: "user", at: context.now)
                }
            }
            return try await engine.proved(id, amr: amr, &context, in: repositories)
        }
    }

    /// Whether `stored` may answer this flow: one of the flow's account's passkeys, or any
    /// passkey of the project in a sign-in started without an identifier.
    static func mayAnswer(_ stored: PasskeyCredentialRecord, _ context: FlowEngine.Context) -> Bool {
        if let user = context.user { return stored.userId == user.id }
        return context.flow.identifier.isEmpty && context.progress.isSignIn
    }

    /// A passkey name as the user gave it: trimmed, at most 64 characters, no control characters.
    static func checkedName(_ raw: String?) throws -> String? {
        guard let raw else { return nil }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { return nil }
        guard name.count <= 64, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "name", reason: "Give the passkey a name of at most 64 characters.")
            ])
        }
        return name
    }

    /// A name for a passkey the user did not name: its kind and a number.
    static func defaultName(_ verified: VerifiedRegistration, _ existing: [PasskeyCredentialRecord]) -> String {
        let kind = verified.backupEligible ? "Passkey" : "Security key"
        return existing.isEmpty ? kind : "\(kind) \(existing.count + 1)"
    }

    /// Why an answer was refused.
    enum Refusal {
        case refused(WebAuthnFailure)
        case unknownCredential
    }

    /// A refused answer costs an attempt; past the limit the flow fails. The stage already has a
    /// new challenge.
    private func failure(
        _ refusal: Refusal, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories
    ) async throws -> FlowProblem {
        let failures = context.progress.failures(of: id) + 1
        context.progress.failures[id.rawValue] = failures
        if !context.flow.identifier.isEmpty { try await engine.recordFailure(context, in: repositories) }
        let remaining = engine.limits.maxCodeAttempts - failures
        if remaining <= 0 {
            context.flow.state = .failed
            return .tooManyAttempts
        }
        switch refusal {
        case .refused(let failure): return .passkeyRefused(failure, attemptsRemaining: remaining)
        case .unknownCredential: return .passkeyUnknownCredential(attemptsRemaining: remaining)
        }
    }
}
