// Browser/HostedPages/ — the hosted pages: sign-in for `/oauth2/authorize`, consent, sign-out and the account.
//
// - `AccountPortal.swift`: the `manageAccount` step as sections of rows, each row with its own buttons.
// - `BrowserCookies.swift`: the session and visit cookies; `__Host-` and `Secure` over HTTPS.
// - `BrowserFlowState.swift`: what a visit is doing (authorize, account, logout), kept as JSON.
// - `FlowAPIClient.swift`: sends a step's action in process through the flow API's routes.
// - `HostedLogin+Account.swift`: `GET /account`: the account managed through an `accountManage` flow.
// - `HostedLogin+Activation.swift`: the user's PowerAuth activations, listed on the account page.
// - `HostedLogin+Authorize.swift`: `/oauth2/authorize` and pushed authorization requests (RFC 9126).
// - `HostedLogin+Logout.swift`: RP-initiated logout at `/oauth2/logout` and its confirmation page.
// - `HostedLogin+Pages.swift`: the pages and posts of a visit under `/login`: identifier, steps, consent.
// - `HostedLogin.swift`: `HostedLogin`: visits driving one flow each, and the browser session they end in.
// - `HostedLoginRoutes.swift`: the routes of the browser front door and its assets, each with its caller.
// - `PageSecurity.swift`: every page's Content-Security-Policy, and the origin check of form posts.
// - `StepPage.swift`: any flow step drawn as a page, each action a form.
// - `Rendering/`: the page model, its HTML from mustache templates, strings, theme colours, QR codes.
//
// Read `HostedLogin.swift` first; each of its extensions holds one part of the pages.
