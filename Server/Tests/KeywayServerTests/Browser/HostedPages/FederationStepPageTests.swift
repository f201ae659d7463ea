import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

/// The hosted pages' side of signing in with another provider: provider buttons on the method
/// choice, and the browser sent on to the provider's page.
@Suite struct FederationStepPageTests {
    private let stepPage = StepPage(
        strings: .english, csrfToken: "csrf-1", theme: HostedTheme(name: "Acme Notes"), applicationName: "Acme Notes",
        now: Date(timeIntervalSince1970: 1_800_000_000))

    private func step(payload: StepPayload, actions: [Action]) -> Step {
        Step(
            flowID: "flw_1", payload: payload,
            actions: actions + [Action(name: "cancel", href: "/v1/flows/flw_1", method: "DELETE", label: "Cancel")],
            meta: Meta(traceID: "t1"))
    }

    private func render(_ page: HostedPage) -> String {
        HostedPageRenderer().render(page, strings: .english, themeStylesheetPath: nil)
    }

    @Test func providerChoicesAreButtonsWithTheirLabelAndIcon() {
        let choice = SelectMethodPayload(
            methods: [
                MethodOption(id: "emailOtp", type: .emailOtp, label: "Email a code", destination: "a•••@example.com"),
                MethodOption(
                    id: "federation:google", type: .federation, label: "Google",
                    provider: FederationProvider(id: "google", label: "Continue with Google", iconURL: "https://cdn.example.com/g.svg")),
                MethodOption(
                    id: "federation:corp", type: .federation, label: "Corp",
                    provider: FederationProvider(id: "corp", label: "Sign in with Corp", iconURL: "http://corp.example/logo.png")),
            ], purpose: .primary, skippable: false)
        let select = Action(name: "selectMethod", href: "/v1/flows/flw_1/method", method: "POST", label: "Choose", fields: [])
        let page = stepPage.page(for: step(payload: .selectMethod(choice), actions: [select]), flash: nil)
        #expect(
            page.forms.map(\.submitLabel).prefix(3) == [
                "Email a code (a•••@example.com)", "Continue with Google", "Sign in with Corp",
            ])
        let html = render(page)
        let check = HTMLCheck(html)
        #expect(check.problems == [])
        let icons = check.tags("img").filter { $0.attributes["class"] == "kw-button-icon" }
        // Only the https icon is drawn (the page's CSP allows https images only).
        #expect(icons.map { $0.attributes["src"] } == ["https://cdn.example.com/g.svg"])
        #expect(icons.first?.attributes["alt"] == "")
        #expect(html.contains(#"<input type="hidden" name="methodId" value="federation:google">"#))
    }

    @Test func aRedirectStepSendsTheBrowserToTheProvider() {
        let url = "https://accounts.example.com/authorize?client_id=kw&state=st_1&nonce=n_1"
        let redirect = RedirectPayload(
            url: url, returnScheme: "https", provider: FederationProvider(id: "google", label: "Continue with Google"))
        let callback = Action(name: "callback", href: "/v1/flows/flw_1/federation/callback", method: "POST", label: "Continue", fields: [])
        let page = stepPage.page(for: step(payload: .redirect(redirect), actions: [callback]), flash: nil)
        #expect(page.redirectTo == url)
        #expect(!page.forms.contains { $0.hidden.contains { $0.value == "callback" } }, "the callback is the server's, not a button")
        let html = render(page)
        let check = HTMLCheck(html)
        #expect(check.problems == [])
        // Attribute values as written in the HTML: `&` escaped.
        let written = url.replacingOccurrences(of: "&", with: "&amp;")
        let refresh = check.tags("meta").first { $0.attributes["http-equiv"] == "refresh" }
        #expect(refresh?.attributes["content"] == "0; url=\(written)")
        #expect(check.tags("a").contains { $0.attributes["href"] == written })
        // The screen's words, as the SDK's screens say them.
        #expect(html.contains("You sign in at Google, then come back here."))
        #expect(html.contains(">Continue with Google<"))
    }

    @Test func aRedirectToSomethingElseThanAWebPageIsNotFollowed() {
        for url in ["javascript:alert(1)", "data:text/html,x", "/login/elsewhere"] {
            let redirect = RedirectPayload(
                url: url, returnScheme: "https", provider: FederationProvider(id: "evil", label: "Evil"))
            let page = stepPage.page(for: step(payload: .redirect(redirect), actions: []), flash: nil)
            #expect(page.redirectTo == nil, "\(url)")
            #expect(!render(page).lowercased().contains("http-equiv=\"refresh\""), "\(url)")
        }
    }
}
