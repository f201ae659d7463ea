import Foundation

/// Every sentence of the hosted pages, by key, for one language: the JSON files of
/// `Resources/HostedPages/strings/<locale>/` merged (`pages.json`: what the pages say;
/// `chrome.json`: the frame around them). A translation is one more folder.
struct HostedStrings: Sendable {
    /// The language of these strings (`en`).
    let locale: String
    private let table: [String: String]

    /// The languages the pages are translated into, English first.
    static let locales = ["en"]

    /// The English strings, loaded once.
    static let english = HostedStrings.load(locale: "en")

    /// The strings of the first of `preferred` (`ui_locales`) the pages are translated into, or English.
    static func forLocales(_ preferred: [String]) -> HostedStrings {
        // Only English exists; another language falls back to it.
        _ = preferred
        return english
    }

    init(locale: String, table: [String: String]) {
        self.locale = locale
        self.table = table
    }

    /// The string of `key` with each `{name}` replaced by `values[name]`; the key itself when
    /// missing (a test checks that every key the pages use exists).
    func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        guard var text = table[key] else { return key }
        for (name, value) in values {
            text = text.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return text
    }

    /// Whether `key` has a string.
    func has(_ key: String) -> Bool { table[key] != nil }

    /// Every key.
    var keys: [String] { table.keys.sorted() }

    static func load(locale: String) -> HostedStrings {
        var table: [String: String] = [:]
        for name in ["pages", "chrome"] {
            guard
                let url = Bundle.module.url(
                    forResource: name, withExtension: "json", subdirectory: "HostedPages/strings/\(locale)"),
                let data = try? Data(contentsOf: url),
                let strings = try? JSONDecoder().decode([String: String].self, from: data)
            else { continue }
            table.merge(strings) { first, _ in first }
        }
        return HostedStrings(locale: locale, table: table)
    }
}
