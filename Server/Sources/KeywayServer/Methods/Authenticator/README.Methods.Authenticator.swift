// Methods/Authenticator/ — authenticator apps (TOTP): set up in a flow, then a second factor or primary method.
//
// - `AuthenticatorMethod+Account.swift`: the account step's `setupTotp` and `removeTotp`.
// - `AuthenticatorMethod.swift`: a secret set up and proven by its first code; each code accepted once.
// - `AuthenticatorProblems.swift`: `codeReplayed`: a code already used.
// - `OneTimePassword.swift`: HOTP (RFC 4226) and TOTP (RFC 6238) codes.
