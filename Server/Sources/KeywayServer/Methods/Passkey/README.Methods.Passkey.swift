// Methods/Passkey/ — the passkey method: WebAuthn sign-in, sign-up, an offer after sign-in, and account management.
//
// - `PasskeyMethod+Account.swift`: the account step's `addPasskey`, `renamePasskey` and `removePasskey`.
// - `PasskeyMethod+Ceremonies.swift`: the answers of `passkey/register` and `passkey/authenticate`.
// - `PasskeyMethod.swift`: a way in without an identifier, a second factor, a re-verification, an offer.
// - `PasskeyOptions.swift`: the WebAuthn creation and request options of the passkey steps.
// - `PasskeyProblems.swift`: a refused answer, an unknown passkey, no answer.
// - `PasskeySettings.swift`: `passkeys` in the policy: relying party, origins, verification, attestation.
// - `HostedPages/`: passkeys on the hosted pages.
// - `Storage/`: users' passkeys (`passkey_credentials`).
// - `WebAuthn/`: the WebAuthn core: client data, authenticator data, COSE keys, attestation, verifier.
//
// Each ceremony's challenge is bound to the flow's stage and used once: any answer replaces it.
