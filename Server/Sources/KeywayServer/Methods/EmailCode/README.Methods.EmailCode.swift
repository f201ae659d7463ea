// Methods/EmailCode/ — email codes: a one-time code sent to the account's email address.
//
// - `EmailCodeMethod.swift`: a primary method, a second factor and a re-verification, by email.
//
// The code step itself (sending, checking, resending) is the engine's, in `Flows/Codes/`.
