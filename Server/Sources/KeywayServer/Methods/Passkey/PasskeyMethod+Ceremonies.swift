import Foundation
import KeywayJOSE
import KeywayProtocol

/// The two ceremonies' answers: a new passkey (`POST passkey/register`) and a passkey's
/// signature (`POST passkey/authenticate`), each checked by ``WebAuthnVerifier`` against the
/// stage's challenge, which any answer replaces.
extension PasskeyMethod {
    /// Takes a new passkey: kept for the account a sign-up creates, or stored on the account.
    func register(_ body: RegisterPasskeyRequest, _ method: inout MethodContext) async throws -> FlowProblem? {
        let name = try Self.checkedName(body.name)
        let state = try method.state(as: PasskeyStage.self)
        guard method.purpose == .enrolment, let challenge = state.challenge, let userHandle = state.userHandle else {
            throw FlowProblem.invalidStep
        }
        guard let relyingParty = Self.relyingParty(method.context) else { throw FlowProblem.methodUnavailable }
        try await method.countCheck()
        try Self.renewChallenge(&method)
        let verified: VerifiedRegistration
        do throws(WebAuthnFailure) {
            verified = try await WebAuthnVerifier(relyingParty: relyingParty).verifyRegistration(
                body.credential, challenge: Base64URL.decode(challenge) ?? Data(), now: Date(epochMilliseconds: method.now))
        } catch {
            return try await failure(.refused(error), &method)
        }
        let projectId = method.application.projectId
        let credentialId = Base64URL.encode(verified.credentialID)
        if try await method.repositories.passkeys.find(projectId: projectId, credentialId: credentialId) != nil {
            return .passkeyAlreadyRegistered
        }
        let passkey = PasskeyCredentialRecord(
            id: SecureRandom.identifier(prefix: "pky"), userId: method.user?.id ?? "", projectId: projectId,
            credentialId: credentialId, userHandle: userHandle, publicKey: Base64URL.encode(verified.publicKey),
            algorithm: verified.algorithm.rawValue, signCount: Int64(verified.signCount),
            backupEligible: verified.backupEligible, backedUp: verified.backedUp, userVerified: verified.userVerified,
            transports: Array(verified.transports.prefix(8)),
            aaguid: verified.aaguid.map { String(format: "%02x", $0) }.joined(),
            attestationFormat: String(verified.attestationFormat.prefix(32)),
            attestationTrust: verified.attestationTrust.rawValue,
            name: name ?? Self.defaultName(verified, method.passkeys), createdAt: method.now,
            lastUsedAt: nil, counterRegressedAt: nil)
        if try !method.keepForSignUp(PasskeyCredentialDraft(passkey: passkey)) {
            guard method.user != nil else { throw FlowProblem.internalError }
            guard try await method.repositories.passkeys.insert(passkey) else { return .passkeyAlreadyRegistered }
            method.passkeys.append(passkey)
            if method.isAccountManagement { method.leaveNotice("passkeyAdded") }
        }
        if state.provesSecondFactor == true {
            return try await method.prove(amr: passkey.backupEligible ? "swk" : "hwk")
        }
        return try await method.moveOn()
    }

    /// Takes a passkey's signature: the sign-in of the passkey's account (a flow started without
    /// an identifier learns its account here), a second factor, or a fresh verification.
    func authenticate(_ body: AuthenticatePasskeyRequest, _ method: inout MethodContext) async throws -> FlowProblem? {
        let state = try method.state(as: PasskeyStage.self)
        guard method.purpose != .enrolment, let challenge = state.challenge else { throw FlowProblem.invalidStep }
        guard let relyingParty = Self.relyingParty(method.context) else { throw FlowProblem.methodUnavailable }
        try await method.countCheck()
        try Self.renewChallenge(&method)
        let passkeys = method.repositories.passkeys
        guard let stored = try await passkeys.find(projectId: method.application.projectId, credentialId: body.credential.rawID),
            Self.mayAnswer(stored, method.context)
        else {
            return try await failure(.unknownCredential, &method)
        }
        guard let owner = try await method.repositories.users.find(id: stored.userId) else {
            return try await failure(.unknownCredential, &method)
        }
        try await method.countForAccount("check-id", limit: method.limits.rateLimits.codeChecksPerIdentifier, of: owner)
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
                try await passkeys.flagCounterRegression(id: stored.id, at: method.now)
            }
            return try await failure(.refused(error), &method)
        }
        // The counter moves only from the value this check read: a signature raced by
        // another (a cloned authenticator) fails here.
        guard try await passkeys.used(
            id: stored.id, from: stored.signCount, to: Int64(verified.signCount), backedUp: verified.backedUp,
            at: method.now)
        else {
            let regressed = WebAuthnFailure.counterRegressed(
                stored: UInt32(clamping: stored.signCount), received: verified.signCount)
            return try await failure(.refused(regressed), &method)
        }
        if method.user == nil {
            // A sign-in started without an identifier: the passkey names its account.
            method.setUser(owner)
            method.setIdentifier(owner.email ?? owner.phone ?? "")
            method.passkeys = try await passkeys.all(userId: owner.id)
        }
        if method.purpose == .primary {
            method.record(.primary, amr: "user")
            // A passkey that verified the user is two factors in one (something the user has,
            // and a biometric or PIN), where the policy counts passkeys as a second factor.
            if verified.userVerified, method.policy.mfaMethods.contains(id) {
                method.record(.secondFactor, amr: "user")
            }
        }
        return try await method.prove(amr: stored.backupEligible ? "swk" : "hwk")
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
    private func failure(_ refusal: Refusal, _ method: inout MethodContext) async throws -> FlowProblem {
        try await method.refuse { remaining in
            switch refusal {
            case .refused(let failure): .passkeyRefused(failure, attemptsRemaining: remaining)
            case .unknownCredential: .passkeyUnknownCredential(attemptsRemaining: remaining)
            }
        }
    }
}
