// PowerAuth/Signing/ — a request's PowerAuth signature: its headers read strictly and its signature verified.
//
// - `PowerAuthRequestHeader.swift`: the three `X-PowerAuth-…` headers read, versions 3.2 and 3.3.
// - `PowerAuthSignatureVerifier.swift`: `X-PowerAuth-Authorization` verified; failures counted to `BLOCKED`.
