import Crypto
import Foundation
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol

/// Verifies passkey registrations (WebAuthn Level 3 §7.1) and assertions (§7.2) for one relying
/// party. Every refusal is a ``WebAuthnFailure``; no input makes it trap.
struct WebAuthnVerifier: Sendable {
    /// What the relying party accepts.
    let relyingParty: WebAuthnRelyingParty

    /// Checks a registration response (§7.1): the client data (type `webauthn.create`, the
    /// challenge compared in constant time, an allowed origin, not cross-origin), the
    /// authenticator data (RP ID hash, UP, UV when required, consistent backup flags, BE only
    /// where synced passkeys are allowed, the attested credential with `id` and `rawId` naming
    /// it, a supported key) and the attestation statement for its format.
    ///
    /// - Parameters:
    ///   - response: The credential's JSON, as the client sent it.
    ///   - challenge: The challenge issued for this registration.
    ///   - now: The time attestation certificates must be valid at.
    /// - Returns: What to store for the new passkey.
    /// - Throws: ``WebAuthnFailure`` naming the first check that failed.
    func verifyRegistration(_ response: PasskeyRegistrationResponse, challenge: Data, now: Date) async throws(WebAuthnFailure)
        -> VerifiedRegistration
    {
        guard response.type == "public-key" else { throw .malformed("the credential's type is not public-key") }
        let clientDataJSON = try Self.base64URL(response.response.clientDataJSON, "clientDataJSON")
        let clientData = try CollectedClientData(json: clientDataJSON)
        try checkClientData(clientData, type: "webauthn.create", challenge: challenge)

        let attestationObject = try Self.base64URL(response.response.attestationObject, "attestationObject")
        let object: CBOR
        do { object = try CBOR.decode(attestationObject) } catch { throw .malformed("the attestation object: \(error.reason)") }
        guard case .map = object else { throw .malformed("the attestation object is not a map") }
        guard let format = object["fmt"]?.textValue, !format.isEmpty else { throw .malformed("the attestation object has no fmt") }
        guard let statement = object["attStmt"], case .map(let statementPairs) = statement else {
            throw .malformed("the attestation object has no attStmt map")
        }
        guard let authenticatorDataBytes = object["authData"]?.bytesValue else {
            throw .malformed("the attestation object has no authData")
        }
        let authenticatorData = try WebAuthnAuthenticatorData(authenticatorDataBytes)
        try checkAuthenticatorData(authenticatorData)
        let flags = authenticatorData.flags
        guard !flags.contains(.backupEligible) || relyingParty.allowSyncedPasskeys else { throw .syncedNotAllowed }
        guard let attested = authenticatorData.attestedCredential else {
            throw .malformed("the authenticator data has no attested credential data")
        }
        let id = try Self.base64URL(response.id, "id")
        let rawID = try Self.base64URL(response.rawID, "rawId")
        guard id == rawID, id == attested.credentialID else { throw .credentialMismatch }
        let key = try COSEPublicKey(cbor: attested.publicKey)

        let trust: AttestationTrust
        switch format {
        case "none":
            guard statementPairs.isEmpty else { throw .attestationInvalid("a none attestation has a statement") }
            trust = .none
        case "packed":
            trust = try await PackedAttestation.verify(
                statement: statement, authenticatorData: authenticatorDataBytes,
                clientDataHash: Data(SHA256.hash(data: clientDataJSON)), credentialKey: key, aaguid: attested.aaguid,
                roots: relyingParty.attestationRoots, now: now)
        default:
            trust = .unverified
        }
        return VerifiedRegistration(
            credentialID: attested.credentialID, publicKey: attested.publicKey, algorithm: key.algorithm,
            signCount: authenticatorData.signCount, aaguid: attested.aaguid, userVerified: flags.contains(.userVerified),
            backupEligible: flags.contains(.backupEligible), backedUp: flags.contains(.backedUp),
            attestationFormat: format, attestationTrust: trust, transports: response.response.transports ?? [])
    }

    /// Checks an assertion response (§7.2) against the stored passkey: the credential and user
    /// handle, the client data (type `webauthn.get`, challenge, origin, not cross-origin), the
    /// authenticator data (RP ID hash, UP, UV when required, BE as registered), the signature
    /// over `authenticatorData ‖ SHA-256(clientDataJSON)` with the stored key, and the counter:
    /// 0 after 0 is accepted (authenticators without a counter, synced passkeys); otherwise it
    /// must grow.
    ///
    /// - Parameters:
    ///   - response: The credential's JSON, as the client sent it.
    ///   - challenge: The challenge issued for this sign-in.
    ///   - credential: The stored passkey `response.id` names.
    /// - Returns: What to write back to the stored passkey.
    /// - Throws: ``WebAuthnFailure`` naming the first check that failed.
    func verifyAssertion(_ response: PasskeyAssertionResponse, challenge: Data, credential: StoredPasskeyCredential)
        throws(WebAuthnFailure) -> VerifiedAssertion
    {
        guard response.type == "public-key" else { throw .malformed("the credential's type is not public-key") }
        let id = try Self.base64URL(response.id, "id")
        let rawID = try Self.base64URL(response.rawID, "rawId")
        guard id == rawID, id == credential.credentialID else { throw .credentialMismatch }
        if let handle = response.response.userHandle {
            let userHandle = try Self.base64URL(handle, "userHandle")
            // An empty user handle is how some clients say "none".
            guard userHandle.isEmpty || userHandle == credential.userHandle else { throw .credentialMismatch }
        }
        let clientDataJSON = try Self.base64URL(response.response.clientDataJSON, "clientDataJSON")
        let clientData = try CollectedClientData(json: clientDataJSON)
        try checkClientData(clientData, type: "webauthn.get", challenge: challenge)

        let authenticatorDataBytes = try Self.base64URL(response.response.authenticatorData, "authenticatorData")
        let authenticatorData = try WebAuthnAuthenticatorData(authenticatorDataBytes)
        try checkAuthenticatorData(authenticatorData)
        let flags = authenticatorData.flags
        guard flags.contains(.backupEligible) == credential.backupEligible else { throw .backupStateInvalid }

        let signature = try Self.base64URL(response.response.signature, "signature")
        let key = try COSEPublicKey(cbor: credential.publicKey)
        let signed = authenticatorDataBytes + Data(SHA256.hash(data: clientDataJSON))
        guard key.isValidSignature(signature, for: signed) else { throw .signatureInvalid }

        let received = authenticatorData.signCount
        if received != 0 || credential.signCount != 0 {
            guard received > credential.signCount else {
                throw .counterRegressed(stored: credential.signCount, received: received)
            }
        }
        return VerifiedAssertion(
            signCount: received, userVerified: flags.contains(.userVerified), backedUp: flags.contains(.backedUp))
    }

    /// The client-data checks both ceremonies share: the type, the challenge (constant time),
    /// the origin among the allowed ones, and not cross-origin.
    ///
    /// - Parameters:
    ///   - clientData: The parsed client data.
    ///   - type: The ceremony's type, `webauthn.create` or `webauthn.get`.
    ///   - challenge: The challenge issued.
    /// - Throws: ``WebAuthnFailure`` naming the first check that failed.
    private func checkClientData(_ clientData: CollectedClientData, type: String, challenge: Data) throws(WebAuthnFailure) {
        guard clientData.type == type else { throw .wrongType }
        guard ConstantTime.equals(clientData.challenge, challenge) else { throw .challengeMismatch }
        guard relyingParty.origins.contains(clientData.origin) else { throw .originNotAllowed(clientData.origin) }
        guard !clientData.crossOrigin else { throw .crossOrigin }
    }

    /// The authenticator-data checks both ceremonies share: the RP ID hash, UP, UV when
    /// required, and BS only with BE.
    ///
    /// - Parameter authenticatorData: The parsed authenticator data.
    /// - Throws: ``WebAuthnFailure`` naming the first check that failed.
    private func checkAuthenticatorData(_ authenticatorData: WebAuthnAuthenticatorData) throws(WebAuthnFailure) {
        guard authenticatorData.rpIDHash == WebAuthnRelyingParty.rpIDHash(relyingParty.id) else { throw .rpIDMismatch }
        let flags = authenticatorData.flags
        guard flags.contains(.userPresent) else { throw .userNotPresent }
        guard flags.contains(.userVerified) || relyingParty.userVerification != .required else { throw .userNotVerified }
        guard flags.contains(.backupEligible) || !flags.contains(.backedUp) else { throw .backupStateInvalid }
    }

    /// Decodes a base64url member of the response.
    ///
    /// - Parameters:
    ///   - text: The member's value.
    ///   - member: The member's name, for the refusal.
    /// - Returns: The decoded bytes.
    /// - Throws: ``WebAuthnFailure/malformed(_:)`` when it is not base64url.
    private static func base64URL(_ text: String, _ member: String) throws(WebAuthnFailure) -> Data {
        guard let data = Base64URL.decode(text) else { throw .malformed("\(member) is not base64url") }
        return data
    }
}
