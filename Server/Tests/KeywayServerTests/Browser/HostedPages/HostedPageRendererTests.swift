import Foundation
import Testing

@testable import KeywayServer

/// The hosted pages' HTML: structure, accessibility, the absence of script and inline style.
@Suite struct HostedPageRendererTests {
    /// Renders `page` in English.
    func render(_ page: HostedPage, themeStylesheetPath: String? = nil) -> String {
        HostedPageRenderer().render(page, strings: .english, themeStylesheetPath: themeStylesheetPath)
    }

    /// The forms of a list display's items.
    static func itemForms(_ display: HostedDisplay) -> [HostedForm] {
        guard case .list(_, let items, _) = display else { return [] }
        return items.flatMap(\.forms)
    }

    @Test("every sample is a well-formed document with one h1, a main, a language and a viewport", arguments: HostedPageSamples.all.map(\.name))
    func wellFormed(name: String) throws {
        let page = try #require(HostedPageSamples.all.first { $0.name == name }?.page)
        let html = render(page)
        let check = HTMLCheck(html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(check.problems == [])
        #expect(check.tags("h1").count == 1)
        #expect(check.tags("main").count == 1)
        #expect(check.tags("meta").contains { $0.attributes["charset"] == "utf-8" })
        #expect(
            check.tags("meta").contains {
                $0.attributes["name"] == "viewport" && $0.attributes["content"] == "width=device-width, initial-scale=1"
            })
        #expect(check.tags("a").first?.attributes["href"] == "#kw-main")
        #expect(check.tags("main").first?.attributes["id"] == "kw-main")
        #expect(Set(check.ids).count == check.ids.count, "ids are unique")
        let hasErrors = (page.forms + page.displays.flatMap(Self.itemForms)).contains { $0.fields.contains { $0.error != nil } }
        #expect(html.contains("<title>\(hasErrors ? "Error: " : "")\(page.title) – Acme Notes</title>"))
    }

    @Test("no script, no inline style, no style element", arguments: HostedPageSamples.all.map(\.name))
    func noScriptNoInlineStyle(name: String) throws {
        let page = try #require(HostedPageSamples.all.first { $0.name == name }?.page)
        let html = render(page, themeStylesheetPath: "/login/assets/theme/abc.css").lowercased()
        #expect(!html.contains("<script"))
        #expect(!html.contains("<style"))
        #expect(!html.contains(" style="))
        #expect(!html.contains("javascript:"))
        for tag in HTMLCheck(html).tags {
            #expect(!tag.attributes.keys.contains { $0.hasPrefix("on") || $0 == "style" }, "\(tag.name)")
        }
    }

    @Test("every input and select has a label, and every aria-describedby names elements on the page", arguments: HostedPageSamples.all.map(\.name))
    func labelsAndDescriptions(name: String) throws {
        let page = try #require(HostedPageSamples.all.first { $0.name == name }?.page)
        let check = HTMLCheck(render(page))
        let labelled = Set(check.tags("label").compactMap { $0.attributes["for"] })
        let ids = Set(check.ids)
        let controls = check.tags.filter { ($0.name == "input" && $0.attributes["type"] != "hidden") || $0.name == "select" }
        for control in controls {
            let id = try #require(control.attributes["id"], "\(control)")
            #expect(labelled.contains(id), "\(id) has a label")
        }
        #expect(labelled.isSubset(of: ids))
        for tag in check.tags {
            for reference in (tag.attributes["aria-describedby"] ?? "").split(separator: " ") {
                #expect(ids.contains(String(reference)), "\(reference) exists")
            }
            if let reference = tag.attributes["aria-labelledby"] { #expect(ids.contains(reference)) }
        }
        for form in check.tags("form") {
            #expect(form.attributes["method"] == "post")
        }
        #expect(check.tags("button").allSatisfy { $0.attributes["type"] == "submit" })
        #expect(
            check.tags("input").filter { $0.attributes["name"] == "csrf_token" }.count == check.tags("form").count)
    }

    @Test func inputAttributes() throws {
        let check = HTMLCheck(render(HostedPageSamples.code))
        let code = try #require(check.tags("input").first { $0.attributes["name"] == "code" })
        #expect(code.attributes["type"] == "text")
        #expect(code.attributes["inputmode"] == "numeric")
        #expect(code.attributes["autocomplete"] == "one-time-code")
        #expect(code.attributes["minlength"] == "6")
        #expect(code.attributes["maxlength"] == "6")
        #expect(code.attributes["pattern"] == "[0-9]{6}")
        #expect(code.attributes["required"] == "")
        #expect(code.attributes["value"] == "12345")
        #expect(code.attributes["aria-invalid"] == "true")
        let id = try #require(code.attributes["id"])
        #expect(code.attributes["aria-describedby"] == "\(id)-hint \(id)-error")
        #expect(check.text(ofId: "\(id)-hint") == "The 6-digit code from the email.")
        // The error summary links to the input.
        let summary = try #require(check.tags("div").first { $0.attributes["class"] == "kw-error-summary" })
        #expect(summary.attributes["role"] == "alert")
        #expect(check.tags("a").contains { $0.attributes["href"] == "#\(id)" })
        #expect(check.html.contains("<title>Error: Check your email – Acme Notes</title>"))
    }

    @Test func fieldKinds() throws {
        let check = HTMLCheck(render(HostedPageSamples.signUp))
        let inputs = Dictionary(
            check.tags("input").compactMap { tag in tag.attributes["name"].map { ($0, tag) } }, uniquingKeysWith: { a, _ in a })
        #expect(inputs["name"]?.attributes["required"] == nil)
        #expect(check.html.contains("Full name <span class=\"kw-optional\">(optional)</span>"))
        #expect(inputs["phone"]?.attributes["type"] == "tel")
        #expect(inputs["phone"]?.attributes["autocomplete"] == "tel")
        #expect(inputs["password"]?.attributes["type"] == "password")
        #expect(inputs["password"]?.attributes["value"] == nil, "a password is never written back")
        #expect(inputs["password"]?.attributes["autocomplete"] == "new-password")
        #expect(inputs["password"]?.attributes["minlength"] == "12")
        #expect(!check.html.contains("secret-value"))
        let terms = try #require(inputs["terms"])
        #expect(terms.attributes["type"] == "checkbox")
        #expect(terms.attributes["required"] == "")
        #expect(terms.attributes["aria-invalid"] == "true")
        #expect(check.tags("a").contains { $0.attributes["href"] == "https://example.com/terms" })
        let select = try #require(check.tags("select").first)
        #expect(select.attributes["name"] == "country")
        let options = check.tags("option")
        #expect(options.map { $0.attributes["value"] } == ["de", "fr", "us"])
        #expect(options.map { $0.attributes["selected"] != nil } == [false, true, false])
        // Only the checkbox has an error: the summary lists one.
        #expect(check.tags("li").count >= 1)
        #expect(check.html.contains("<a href=\"#\(terms.attributes["id"] ?? "")\">Accept the terms to continue.</a>"))
    }

    @Test func checkboxTicked() {
        var page = HostedPageSamples.signUp
        page.forms[0].fields[4].value = "on"
        page.forms[0].fields[4].error = nil
        let check = HTMLCheck(render(page))
        #expect(check.tags("input").first { $0.attributes["name"] == "terms" }?.attributes["checked"] == "")
        #expect(!check.html.contains("kw-error-summary"))
        #expect(check.html.contains("<title>Create your account – Acme Notes</title>"))
    }

    @Test func formsAndButtons() throws {
        let check = HTMLCheck(render(HostedPageSamples.code))
        let forms = check.tags("form")
        #expect(forms.map { $0.attributes["action"] } == ["/login/action", "/login/action"])
        #expect(forms.map { $0.attributes["class"] } == ["kw-form kw-form-primary", "kw-form kw-form-link"])
        #expect(check.tags("input").contains { $0.attributes["name"] == "action" && $0.attributes["value"] == "resend" })
        #expect(check.tags("input").contains { $0.attributes["name"] == "csrf_token" && $0.attributes["value"] == "csrf-2" })
        let buttons = check.tags("button")
        #expect(buttons.map { $0.attributes["class"] } == ["kw-button kw-button-primary", "kw-button kw-button-link"])
        #expect(buttons[0].attributes["disabled"] == nil)
        #expect(buttons[1].attributes["disabled"] == "")
        let note = try #require(buttons[1].attributes["aria-describedby"])
        #expect(check.text(ofId: note) == "You can ask for a new code in 30 seconds.")
        // A secondary style.
        let signIn = HTMLCheck(render(HostedPageSamples.signIn))
        #expect(signIn.tags("button").map { $0.attributes["class"] } == ["kw-button kw-button-primary", "kw-button kw-button-secondary"])
    }

    @Test func messages() {
        let waiting = render(HostedPageSamples.waiting)
        #expect(waiting.contains("<div class=\"kw-message kw-message-success\" role=\"status\">"))
        #expect(waiting.contains("<div class=\"kw-message kw-message-warning\" role=\"status\">"))
        #expect(waiting.contains("<span class=\"kw-visually-hidden\">Warning: </span>The request expires in 5 minutes."))
        let devices = render(HostedPageSamples.devices)
        #expect(devices.contains("<div class=\"kw-message kw-message-error\" role=\"alert\">"))
        let code = render(HostedPageSamples.code)
        #expect(code.contains("<div class=\"kw-message kw-message-info\" role=\"status\">"))
    }

    @Test func refresh() {
        let check = HTMLCheck(render(HostedPageSamples.waiting))
        #expect(check.tags("meta").contains { $0.attributes["http-equiv"] == "refresh" && $0.attributes["content"] == "5" })
        #expect(check.html.contains("<p class=\"kw-refresh\">This page updates by itself every few seconds.</p>"))
        #expect(check.tags("button").contains { $0.attributes["class"] == "kw-button kw-button-secondary" })
        let still = render(HostedPageSamples.signIn)
        #expect(!still.contains("http-equiv"))
        #expect(!still.contains("kw-refresh"))
    }

    @Test func displays() throws {
        let waiting = HTMLCheck(render(HostedPageSamples.waiting))
        #expect(waiting.tags("dl").count == 1, "consecutive values share one list")
        #expect(waiting.html.contains("<dt>Number to match</dt>\n<dd>42</dd>"))
        let totp = HTMLCheck(render(HostedPageSamples.totp))
        #expect(totp.html.contains("<p class=\"kw-text\">Scan this QR code"))
        #expect(
            totp.html.contains(
                "<code><span class=\"kw-key-group\">JBSW</span><span class=\"kw-key-group\">Y3DP</span>"))
        #expect(totp.tags("span").filter { $0.attributes["class"] == "kw-key-group" }.count == 8)
        let svg = try #require(totp.tags("svg").first)
        #expect(svg.attributes["role"] == "img")
        #expect(svg.attributes["aria-label"] == "QR code to add Acme Notes to your authenticator app")
        #expect(svg.attributes["shape-rendering"] == "crispEdges")
        #expect(svg.attributes["viewbox"]?.hasPrefix("0 0 ") == true)
        #expect(totp.tags("path").count == 1)
        let devices = HTMLCheck(render(HostedPageSamples.devices))
        #expect(devices.tags("h2").count == 1)
        #expect(devices.tags("li").filter { $0.attributes["class"] == "kw-list-item" }.count == 3)
        #expect(devices.tags("form").count == 2)
        let remove = try #require(devices.tags("button").first)
        let describers = try #require(remove.attributes["aria-describedby"])
        #expect(devices.text(ofId: describers) == "iPhone 15")
    }

    @Test func unsafeTargetsAreLeftOut() {
        var page = HostedPageSamples.signIn
        page.links = [
            HostedLink(text: "bad", href: "javascript:alert(1)"), HostedLink(text: "data", href: "data:text/html,x"),
            HostedLink(text: "other host", href: "//evil.example"), HostedLink(text: "good", href: "/login"),
        ]
        page.forms[1].action = "javascript:alert(1)"
        let check = HTMLCheck(render(page))
        #expect(check.tags("a").compactMap { $0.attributes["href"] } == ["#kw-main", "/login"])
        #expect(check.tags("form").count == 1)
    }

    @Test func language() {
        var page = HostedPageSamples.signIn
        page.locale = "pt-BR"
        #expect(render(page).contains("<html lang=\"pt-BR\">"))
        page.locale = "en\" onload=\"x"
        #expect(render(page).contains("<html lang=\"en\">"))
    }
}
