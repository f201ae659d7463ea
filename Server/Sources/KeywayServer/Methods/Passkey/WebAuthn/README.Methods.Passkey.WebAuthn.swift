// Methods/Passkey/WebAuthn/ — the WebAuthn core: passkey registrations and assertions checked for one relying party.
//
// - `COSEAlgorithm.swift`: the algorithms verified: ES256, EdDSA (Ed25519), RS256.
// - `COSEPublicKey.swift`: a credential key in COSE_Key form (EC2, OKP, RSA) and its signature check.
// - `CollectedClientData.swift`: `clientDataJSON`'s type, challenge, origin and cross-origin flags.
// - `PackedAttestation.swift`: the `packed` attestation format, self or `x5c` (WebAuthn §8.2).
// - `VerifiedAssertion.swift`: the stored passkey an assertion is checked against, and what it writes back.
// - `VerifiedRegistration.swift`: what a registration stores, and how far its attestation was verified.
// - `WebAuthnAuthenticatorData.swift`: RP ID hash, flags, counter, credential data, extensions.
// - `WebAuthnFailure.swift`: why a ceremony was refused, each with a stable code and a sentence.
// - `WebAuthnRelyingParty.swift`: the relying party: ID, origins, user verification, synced passkeys.
// - `WebAuthnVerifier.swift`: registrations (§7.1) and assertions (§7.2) verified.
