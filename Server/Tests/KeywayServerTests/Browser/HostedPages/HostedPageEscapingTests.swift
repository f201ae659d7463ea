import Foundation
import Testing

@testable import KeywayServer

/// Every value of the page model reaches the HTML escaped.
@Suite struct HostedPageEscapingTests {
    /// A value that would run as script, or break out of an attribute, if written as is.
    static let hostile = #"<script>alert("x")</script>' "onload="x"#

    /// A hostile value without spaces, which URLs may carry.
    static let hostileURLPart = #""><script>alert('x')</script>"#

    /// A page carrying ``hostile`` in every string of the model.
    static var hostilePage: HostedPage {
        let h = hostile
        let u = hostileURLPart
        let form = HostedForm(
            action: "/login/action?x=" + u, csrfToken: h, hidden: [HostedHiddenValue(name: h, value: h)],
            fields: [
                HostedField(
                    name: h, label: h, kind: .text, value: h, autocomplete: h, pattern: h, hint: h, error: h),
                HostedField(
                    name: "select", label: h, kind: .select, value: h,
                    options: [HostedOption(value: h, label: h)]),
                HostedField(name: "terms", label: h, kind: .checkbox, link: HostedLink(text: h, href: "/terms?" + u)),
            ],
            submitLabel: h, note: h)
        return HostedPage(
            title: h, subtitle: h, theme: HostedTheme(name: h, logoURL: "https://cdn.example.com/" + u),
            messages: [HostedMessage(level: .error, text: h)],
            displays: [
                .value(label: h, value: h), .key(label: h, value: h), .qrCode(label: h, data: h),
                .list(label: h, items: [HostedListItem(title: h, detail: h, form: form)]), .text(h),
                .image(url: "https://cdn.example.com/client?" + u, alt: h),
            ],
            forms: [form], links: [HostedLink(text: h, href: "/x?" + u)], refreshAfter: 3)
    }

    @Test func everyValueIsEscaped() {
        let html = HostedPageRenderer().render(Self.hostilePage, strings: .english)
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains(#""onload"#))
        #expect(!html.contains("' \""))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &quot;onload=&quot;x"))
        let check = HTMLCheck(html)
        #expect(check.problems == [])
        // The attribute values read back whole: nothing broke out of its quotes.
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &quot;onload=&quot;x"
        #expect(check.tags("input").contains { $0.attributes["name"] == "csrf_token" && $0.attributes["value"] == escaped })
        #expect(check.tags("img").first?.attributes["alt"] == escaped)
        #expect(check.tags("svg").first?.attributes["aria-label"] == escaped)
        #expect(check.tags("option").first?.attributes["value"] == escaped)
        #expect(check.tags.allSatisfy { !$0.attributes.keys.contains("onload") })
        #expect(check.tags("form").count == 2)
        #expect(check.tags("form").first?.attributes["action"] == "/login/action?x=&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
        #expect(check.tags("img").first?.attributes["src"] == "https://cdn.example.com/&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
        #expect(check.tags("img").contains { $0.attributes["src"] == "https://cdn.example.com/client?&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" && $0.attributes["alt"] == escaped })
        #expect(check.tags("a").contains { $0.attributes["href"] == "/x?&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" })
        // Ids are made of the name's safe characters only.
        #expect(check.ids.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") } })
    }

    /// An image display whose URL is not `https` (`javascript:`, `data:`, `http:`) is left out.
    @Test func anImageThatIsNotHTTPSIsLeftOut() {
        for url in ["javascript:alert(1)", "data:image/svg+xml,<svg/>", "http://cdn.example.com/logo.png", "//cdn.example.com/x"] {
            let page = HostedPage(title: "T", theme: HostedTheme(name: "Acme"), displays: [.image(url: url, alt: "logo")])
            let html = HostedPageRenderer().render(page, strings: .english)
            #expect(HTMLCheck(html).tags("img").isEmpty, "\(url)")
        }
    }

    @Test func templatesNeverWriteUnescaped() {
        #expect(HostedPageRenderer.templates.count >= 4)
        for (name, text) in HostedPageRenderer.templates {
            #expect(!text.contains("{{{"), "\(name) uses {{{ }}}")
            #expect(!text.contains("{{&"), "\(name) uses {{& }}")
            #expect(!text.contains("{{="), "\(name) changes the delimiters")
        }
    }
}
