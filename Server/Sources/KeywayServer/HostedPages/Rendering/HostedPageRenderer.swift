/// Draws a ``HostedPage`` as HTML.
enum HostedPageRenderer {
    static func render(_ page: HostedPage, strings: HostedStrings) -> String {
        var html = "<!doctype html><html lang=\"\(page.locale)\"><head><meta charset=\"utf-8\"><title>\(HTML.escape(page.title))</title></head><body><main><h1>\(HTML.escape(page.title))</h1>"
        for message in page.messages { html += "<p class=\"\(message.level.rawValue)\">\(HTML.escape(message.text))</p>" }
        for display in page.displays { html += "<div>\(HTML.escape(String(describing: display)))</div>" }
        for form in page.forms {
            html += "<form method=\"post\" action=\"\(HTML.escape(form.action))\"><input type=\"hidden\" name=\"csrf_token\" value=\"\(HTML.escape(form.csrfToken))\">"
            for hidden in form.hidden { html += "<input type=\"hidden\" name=\"\(HTML.escape(hidden.name))\" value=\"\(HTML.escape(hidden.value))\">" }
            for field in form.fields {
                html += "<label for=\"f-\(HTML.escape(field.name))\">\(HTML.escape(field.label))</label><input id=\"f-\(HTML.escape(field.name))\" name=\"\(HTML.escape(field.name))\" type=\"\(field.kind == .checkbox ? "checkbox" : field.kind == .password ? "password" : "text")\" value=\"\(HTML.escape(field.value ?? ""))\">"
                if let error = field.error { html += "<p class=\"error\">\(HTML.escape(error))</p>" }
            }
            html += "<button type=\"submit\"\(form.disabled ? " disabled" : "")>\(HTML.escape(form.submitLabel))</button></form>"
        }
        for link in page.links { html += "<a href=\"\(HTML.escape(link.href))\">\(HTML.escape(link.text))</a>" }
        return html + "</main></body></html>"
    }
}

extension HostedPageRenderer {
    static let stylesheet = ""
}
