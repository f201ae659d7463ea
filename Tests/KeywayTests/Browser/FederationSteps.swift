import Foundation

/// Step documents of signing in with another provider, as the server sends them.
extension Steps {
    static let providerState = "st_Q2h1cmNoaWxsLWluLXRoZS1kYXJrLTI1Ni1iaXQ"
    static let providerURL =
        "https://accounts.example.com/o/authorize?response_type=code&client_id=kw-client&redirect_uri=https%3A%2F%2Fauth.example.com%2Fv1%2Ffederation%2Fcallback&state=\(providerState)&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&nonce=n-0S6_WzA2Mj"
    static let provider = #"{"id": "google", "label": "Continue with Google", "iconURL": "https://cdn.example.com/google.svg"}"#

    static func redirect(url: String = providerURL, returnScheme: String = "com.example.app", flowToken: Bool = false) -> String {
        step(
            kind: "redirect",
            payload: #"{"url": "\#(url)", "returnScheme": "\#(returnScheme)", "provider": \#(provider)}"#,
            actions: [
                action(
                    "callback", path: "/federation/callback",
                    fields: #"[{"name": "url", "type": "text", "required": false}, {"name": "code", "type": "text", "required": false}, {"name": "state", "type": "text", "required": false}]"#),
                cancel,
            ], flowToken: flowToken)
    }

    static func linkAccount(flowToken: Bool = false) -> String {
        step(
            kind: "linkAccount", payload: #"{"provider": \#(provider), "identifierHint": "a•••@example.com"}"#,
            actions: [action("continue", path: "/federation/link"), cancel], flowToken: flowToken)
    }

    static func selectProvider(flowToken: Bool = true) -> String {
        step(
            kind: "selectMethod",
            payload: """
                {"methods": [
                  {"id": "m_email", "type": "emailOtp", "label": "Email a code to a•••@example.com", "destination": "a•••@example.com"},
                  {"id": "federation:google", "type": "federation", "label": "Google", "provider": \(provider)},
                  {"id": "federation:corp", "type": "federation", "label": "Corp", "provider": {"id": "corp", "label": "Sign in with Corp", "iconURL": "http://corp.example.com/logo.png"}}],
                 "purpose": "primary", "skippable": false}
                """,
            actions: [
                action(
                    "selectMethod", path: "/method",
                    fields: #"[{"name": "methodId", "type": "select", "required": true, "options": [{"value": "m_email", "label": "Email"}, {"value": "federation:google", "label": "Google"}, {"value": "federation:corp", "label": "Corp"}]}]"#),
                cancel,
            ], flowToken: flowToken)
    }
}
