// Methods/SignInLink/ — sign-in links: one message carries a link and a one-time code, and either completes the step.
//
// - `SignInLinkDecisions.swift`: what a link's page finds, and its approval or denial, once.
// - `SignInLinkMethod+Input.swift`: the link's token from the same device, and the polls of a waiting one.
// - `SignInLinkMethod.swift`: a primary method by email or SMS; only a `POST` spends a link.
// - `SignInLinkProblems.swift`: `invalidLink`, `linkUsed` and `linkDenied`.
// - `SignInLinkSettings.swift`: `signInLink` in the policy: channels, the link's base URL, the poll interval.
// - `HostedPages/`: the page a link opens on another device (`/link/{token}`).
// - `Storage/`: the sign-in link's repository: one row per link, spent once.
