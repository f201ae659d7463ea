// Flows/Codes/ — the one-time code step shared by the code methods: sending, checking and resending codes.
//
// - `CodeMethod.swift`: the `CodeMethod` protocol: where codes go, what a right code proves; `CodeStage`.
// - `CodeProblems.swift`: `codeExpired`, `resendCooldown` and `resendLimitReached`.
// - `CodeStep.swift`: the `enterCode` step, its destination masked.
// - `FlowEngine+Codes.swift`: codes sent, checked and resent within their limits.
// - `OneTimeCode.swift`: `OneTimeCodeHasher`: codes from the CSPRNG, stored as an HMAC bound to the flow.
