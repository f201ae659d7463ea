// Methods/Passkey/HostedPages/ — passkeys on the hosted pages: the ceremony a page runs and its answer.
//
// - `HostedLogin+Passkey.swift`: passkey sign-in from the identifier page (`POST /login/passkey`).
// - `HostedPasskeyCeremony+Answers.swift`: a page's ceremony and a passkey form's `credential` answer.
