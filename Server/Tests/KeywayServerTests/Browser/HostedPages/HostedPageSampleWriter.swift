import Foundation
import Testing

@testable import KeywayServer

/// Writes the sample pages, with the stylesheets beside them, into the folder named by
/// `KEYWAY_HOSTED_PAGES_OUT`, to look at in a browser (`file://…/sign-in.html`). Skipped when the
/// variable is not set.
@Suite struct HostedPageSampleWriter {
    /// The folder to write into.
    static let folder = ProcessInfo.processInfo.environment["KEYWAY_HOSTED_PAGES_OUT"]

    /// A stand-in for the samples' logo, which is not reachable from a file.
    static let logo = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="#0f766e"/>\
        <path d="M12 28V12h5v6l6-6h6l-8 8 8 8h-6l-6-6v6z" fill="#fff"/></svg>
        """

    @Test(.enabled(if: folder != nil)) func writeSamples() throws {
        let folder = URL(fileURLWithPath: try #require(Self.folder), isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(HostedPageRenderer.stylesheet.utf8).write(to: folder.appendingPathComponent("keyway.css"))
        try Data(Self.logo.utf8).write(to: folder.appendingPathComponent("logo.svg"))
        for (name, page) in HostedPageSamples.all {
            let themePath = HostedPageRenderer.themeStylesheetPath(page.theme)
            var html = HostedPageRenderer().render(page, strings: .english, themeStylesheetPath: themePath)
            html = html.replacingOccurrences(of: HostedPageRenderer.stylesheetHref, with: "keyway.css")
            if let themePath {
                let file = "theme-" + (themePath.split(separator: "/").last.map(String.init) ?? "theme.css")
                html = html.replacingOccurrences(of: themePath, with: file)
                try Data(HostedPageRenderer.themeStylesheet(page.theme).utf8).write(to: folder.appendingPathComponent(file))
            }
            if let logo = page.theme.logoURL { html = html.replacingOccurrences(of: logo, with: "logo.svg") }
            for case .image(let url, _) in page.displays { html = html.replacingOccurrences(of: url, with: "logo.svg") }
            try Data(html.utf8).write(to: folder.appendingPathComponent("\(name).html"))
        }
    }
}
