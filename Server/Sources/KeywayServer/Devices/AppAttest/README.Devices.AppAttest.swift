// Devices/AppAttest/ — Apple App Attest: an application's settings, challenges, attested keys and their checks.
//
// - `AppAttestAuthenticatorData.swift`: the authenticator data: RP ID hash, flags, counter, AAGUID.
// - `AppAttestFailure.swift`: why an attestation or assertion was refused, each with a stable code.
// - `AppAttestRepository.swift`: single-use challenges and the attested keys of app instances.
// - `AppAttestService.swift`: challenges issued, keys registered, enrolment and token assertions checked.
// - `AppAttestSettings.swift`: device enrolment, DPoP binding, and a request without a proof.
// - `AppAttestVerifier.swift`: attestation objects and assertions verified step by step; `AttestedKey`.
// - `AppleAppAttestRoot.swift`: Apple's App Attestation Root CA certificate.
