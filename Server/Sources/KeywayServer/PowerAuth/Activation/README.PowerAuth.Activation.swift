// PowerAuth/Activation/ — activations: the key exchange, the status blob, removal, the vault, and their rows.
//
// - `PowerAuthActivationRepository.swift`: activations (`powerauth_activations`).
// - `PowerAuthActivationService.swift`: `activation/create` (code, sign-in, recovery) and `status`.
// - `PowerAuthApplicationRepository.swift`: applications' credentials (`powerauth_applications`).
// - `PowerAuthCredentials.swift`: an application's credentials opened; `PowerAuthActivationKeys`.
// - `PowerAuthCustomCredentials.swift`: an activation's user proven by a Keyway token or code.
// - `PowerAuthDeviceService.swift`: a signed `activation/remove` and `vault/unlock`.
// - `PowerAuthUserInfoService.swift`: `POST /pa/v3/user/info`: the activation's `sub`, encrypted.
