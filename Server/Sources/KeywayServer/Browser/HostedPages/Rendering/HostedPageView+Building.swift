import Foundation

extension HostedPageView {
    /// The view of `page`, with the frame's strings of `strings` and the theme's colour stylesheet at
    /// `themeStylesheetPath` (linked only when it is a local path).
    ///
    /// Links whose target ``HostedURLPolicy`` refuses, forms posting elsewhere than a local path or
    /// an `https` URL, a logo or stylesheet that is not `https`, and a QR code too long to encode
    /// are left out. Element ids are derived from the form's position and the field's name, so they
    /// are unique on the page.
    init(page: HostedPage, strings: HostedStrings, themeStylesheetPath: String? = nil) {
        var builder = HostedPageViewBuilder()
        let forms = page.forms.compactMap { builder.form($0, describedBy: nil) }
        let displays = builder.displays(page.displays)
        let fields = (forms + builder.itemForms).flatMap(\.fields)
        lang = Self.languageTag(page.locale)
        title = page.title
        hasSubtitle = !(page.subtitle ?? "").isEmpty
        subtitle = page.subtitle ?? ""
        let logo = page.theme.logoURL.flatMap { HostedURLPolicy.isHTTPS($0) ? $0 : nil }
        let initial = page.theme.name.first(where: { $0.isLetter || $0.isNumber }).map { String($0).uppercased() } ?? ""
        brand = HostedBrandView(
            name: page.theme.name, hasLogo: logo != nil, logoURL: logo ?? "", initial: initial,
            hasInitial: logo == nil && !initial.isEmpty)
        var stylesheets = [HostedLinkView(text: "", href: HostedPageRenderer.stylesheetHref)]
        if let themeStylesheetPath, HostedURLPolicy.isLocalPath(themeStylesheetPath) {
            stylesheets.append(HostedLinkView(text: "", href: themeStylesheetPath))
        }
        if let external = page.theme.stylesheetURL, HostedURLPolicy.isHTTPS(external) {
            stylesheets.append(HostedLinkView(text: "", href: external))
        }
        self.stylesheets = stylesheets
        scripts = page.runsPasskeys ? [HostedLinkView(text: "", href: HostedPageRenderer.passkeyScriptHref)] : []
        let refresh = page.refreshAfter.map { max(1, $0) }
        hasRefresh = refresh != nil
        refreshSeconds = refresh.map(String.init) ?? ""
        let redirect = page.redirectTo.flatMap { HostedURLPolicy.isLinkTarget($0) && !$0.hasPrefix("#") ? $0 : nil }
        hasRedirect = redirect != nil
        redirectURL = redirect ?? ""
        errorSummary = fields.filter(\.hasError).map { HostedLinkView(text: $0.error, href: "#\($0.id)") }
        hasErrors = !errorSummary.isEmpty
        messages = page.messages.map(Self.message)
        self.displays = displays
        self.forms = forms
        links = page.links.filter { HostedURLPolicy.isLinkTarget($0.href) }
            .map { HostedLinkView(text: $0.text, href: $0.href) }
        hasLinks = !links.isEmpty
        var chrome: [String: String] = [:]
        for key in strings.keys where key.hasPrefix("chrome.") {
            chrome[String(key.dropFirst("chrome.".count))] = strings(key)
        }
        self.chrome = chrome
    }

    /// `locale` when it looks like a language tag (`en`, `pt-BR`), otherwise `en`.
    static func languageTag(_ locale: String) -> String {
        let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy(\.isASCIILetter),
            parts.dropFirst().allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy(\.isASCIIAlphanumeric) })
        else { return "en" }
        return locale
    }

    /// The view of a message.
    static func message(_ message: HostedMessage) -> HostedMessageView {
        HostedMessageView(
            text: message.text, level: message.level.rawValue, role: message.level == .error ? "alert" : "status",
            isInfo: message.level == .info, isSuccess: message.level == .success,
            isWarning: message.level == .warning, isError: message.level == .error)
    }
}

extension Character {
    /// Whether this is an ASCII letter.
    fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    /// Whether this is an ASCII letter or digit.
    fileprivate var isASCIIAlphanumeric: Bool { isASCII && (isLetter || isNumber) }
}
