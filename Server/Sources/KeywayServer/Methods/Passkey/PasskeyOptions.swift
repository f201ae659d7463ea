import Foundation
import KeywayProtocol

/// The standard WebAuthn options of the passkey steps, from the stage, the policy and the account.
enum PasskeyOptions {
    /// Milliseconds a ceremony may take.
    static let timeout = 300_000
    /// The key types accepted, in order: ES256, EdDSA, RS256.
    static let algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]

    /// The options of making a passkey: a discoverable credential, for the account's identifier,
    /// excluding the passkeys it has.
    static func creation(
        _ state: PasskeyStage, relyingParty: WebAuthnRelyingParty, _ context: FlowEngine.Context
    ) -> PublicKeyCredentialCreationOptions {
        let name = context.user?.email ?? context.user?.phone ?? context.flow.identifier
        return PublicKeyCredentialCreationOptions(
            rp: PublicKeyCredentialRelyingParty(id: relyingParty.id, name: context.application.name),
            user: PublicKeyCredentialUser(id: state.userHandle ?? "", name: name, displayName: name),
            challenge: state.challenge ?? "",
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0.rawValue) },
            timeout: timeout,
            excludeCredentials: context.passkeys.map { descriptor($0) },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: "required", userVerification: relyingParty.userVerification.rawValue),
            attestation: relyingParty.attestation.rawValue,
            extensions: ["credProps": true])
    }

    /// The options of signing with a passkey. A primary sign-in names no credential, so the
    /// answer says nothing of whether the identifier has an account or passkeys; a second factor
    /// or a fresh verification names the account's passkeys.
    static func request(
        _ state: PasskeyStage, purpose: MethodPurpose, relyingParty: WebAuthnRelyingParty, _ context: FlowEngine.Context
    ) -> PublicKeyCredentialRequestOptions {
        PublicKeyCredentialRequestOptions(
            challenge: state.challenge ?? "", timeout: timeout, rpID: relyingParty.id,
            allowCredentials: purpose == .primary ? [] : context.passkeys.map { descriptor($0) },
            userVerification: relyingParty.userVerification.rawValue)
    }

    private static func descriptor(_ passkey: PasskeyCredentialRecord) -> PublicKeyCredentialDescriptor {
        PublicKeyCredentialDescriptor(id: passkey.credentialId, transports: passkey.transports.isEmpty ? nil : passkey.transports)
    }
}
