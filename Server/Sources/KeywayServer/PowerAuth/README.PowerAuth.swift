// PowerAuth/ — PowerAuth 3.3 on the server: the device API under `/pa/v3`, the backend API under `/v1/powerauth`.
//
// - `PowerAuthFailure.swift`: a `/pa/v3` refusal with the published error body, `400` or `401`.
// - `PowerAuthRecords.swift`: the rows: applications, activations, recovery codes and PUKs, tokens, keys.
// - `PowerAuthRoutes.swift`: the `/pa/v3` routes: keystore, activation, signature, vault, tokens, …
// - `PowerAuthSecrets.swift`: keys and secrets sealed at rest; codes, OTPs and PUKs as keyed hashes.
// - `PowerAuthWire.swift`: `PowerAuthServerStatus`, the one wire type only the server writes.
// - `Activation/`: activation by code, Keyway sign-in or recovery code; status, removal, vault.
// - `Admin/`: PowerAuth on the admin API and the subcommands; the user's own activations.
// - `Backend/`: what an app's backend asks: signatures, envelope keys, tokens, server signatures.
// - `Encryption/`: ECIES requests, temporary keys, and endpoints both signed and encrypted.
// - `Recovery/`: recovery postcards, their codes and PUKs, and `/pa/v3/recovery/confirm`.
// - `Signing/`: the `X-PowerAuth-…` headers, and a request's signature verified.
// - `Tokens/`: activations' MAC tokens.
//
// The folders follow the device SDK's capabilities; the cryptography is `KeywayPowerAuth`'s and
// the JSON of requests and answers `KeywayPowerAuthWire`'s.
