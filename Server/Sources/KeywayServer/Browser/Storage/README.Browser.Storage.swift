// Browser/Storage/ — the hosted pages' rows: browser sessions, visits, consents, pushed requests and redirect URIs.
//
// - `BrowserFlowRepository.swift`: visits in progress (`browser_flows`), found by their cookie's hash.
// - `BrowserRecords.swift`: the records of browser sessions, visits, consents and pushed requests.
// - `BrowserSessionRepository.swift`: browser sessions (`browser_sessions`), stored as their cookie's hash.
// - `ConsentRepository.swift`: what users allowed clients that are not first-party (`consents`).
// - `PushedRequestRepository.swift`: pushed authorization requests (RFC 9126), single use.
// - `RedirectURIRepository.swift`: each application's `login` and `logout` redirect URIs.
