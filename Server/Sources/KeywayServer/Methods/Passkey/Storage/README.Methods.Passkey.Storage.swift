// Methods/Passkey/Storage/ — users' passkeys as stored: one row per WebAuthn credential.
//
// - `PasskeyCredentialRecord.swift`: a passkey's credential ID, COSE public key, counter and flags.
// - `PasskeyRepository.swift`: users' passkeys (`passkey_credentials`).
