// Methods/SignInLink/HostedPages/ — the page a sign-in link opens, where the sign-in is approved or denied.
//
// - `HostedLogin+SignInLink.swift`: `/link/{token}`: a `GET` changes nothing; its `POST`s decide, once.
