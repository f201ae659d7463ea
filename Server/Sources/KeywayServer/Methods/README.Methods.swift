// Methods/ — the sign-in methods, one folder each: what a method shows, the input it takes and its settings.
//
// - `Approval/`: approval of a sign-in from another trusted device, as a second factor.
// - `Authenticator/`: authenticator apps (TOTP), set up in a flow.
// - `EmailCode/`: one-time codes by email.
// - `Federation/`: sign-in with a project's upstream OpenID Connect providers (`federation:<id>`).
// - `Passkey/`: passkeys (WebAuthn) and their verifier.
// - `Password/`: passwords with scrypt, and the password reset.
// - `SMSCode/`: one-time codes by SMS, and setting up a phone number.
// - `SignInLink/`: a link and a code in one message, approvable on another device.
// - `TrustedDevice/`: a trusted device's key standing in for the second factor, and its enrolment.
//
// Each method is a `FlowMethod` with the capability protocols it declares (`Flows/MethodCapabilities.swift`)
// and one line in `MethodRegistry.standard`. A method never extends the engine: it works through
// `MethodContext` and `FlowInputRoutes`.
