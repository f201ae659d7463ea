import Foundation
import KeywayProtocol

/// The screens' strings catalogue, read once: `Localizable.xcstrings` itself where the package's
/// resources hold it as written (SwiftPM copies it so where Apple's tools are missing: Linux), or
/// the `<language>.lproj/Localizable.strings` tables Apple's tools build from it.
struct StringCatalogue: Sendable {
    /// The language the keys are written in.
    let sourceLanguage: String
    /// The languages with words, the source first.
    let languages: [String]
    /// Translations by language, then key.
    private let tables: [String: [String: String]]

    /// The catalogue in KeywayPresentation's resources.
    static let shared = StringCatalogue(bundle: .module)

    init(sourceLanguage: String, tables: [String: [String: String]]) {
        self.sourceLanguage = sourceLanguage
        self.tables = tables
        self.languages = [sourceLanguage] + tables.keys.filter { $0 != sourceLanguage }.sorted()
    }

    /// The catalogue of `bundle`: its `Localizable.xcstrings`, else its built `.lproj` tables, else
    /// English alone.
    init(bundle: Bundle) {
        if let url = bundle.url(forResource: "Localizable", withExtension: "xcstrings"),
            let data = try? Data(contentsOf: url), let catalogue = try? Self.decode(data)
        {
            self = catalogue
            return
        }
        var tables: [String: [String: String]] = [:]
        for language in bundle.localizations where language != "Base" {
            guard
                let url = bundle.url(
                    forResource: "Localizable", withExtension: "strings", subdirectory: nil, localization: language),
                let data = try? Data(contentsOf: url),
                let table = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
            else { continue }
            tables[language] = table
        }
        self.init(sourceLanguage: "en", tables: tables)
    }

    /// A catalogue from the JSON of an `.xcstrings` file: every string unit whose state is
    /// `translated` (a `new` or `needs_review` one is left out, as Apple's tools leave it out).
    static func decode(_ data: Data) throws -> StringCatalogue {
        let file = try JSONDecoder().decode(File.self, from: data)
        var tables: [String: [String: String]] = [:]
        for (key, entry) in file.strings {
            for (language, localization) in entry.localizations ?? [:] {
                guard let unit = localization.stringUnit, unit.state == "translated" else { continue }
                tables[language, default: [:]][key] = unit.value
            }
        }
        return StringCatalogue(sourceLanguage: file.sourceLanguage, tables: tables)
    }

    /// The catalogue's language for `identifier`: the same tag, else its base language (`de` for
    /// `de-AT` or `de_AT`); `nil` when it has neither.
    func closest(to identifier: String) -> String? {
        let tag = identifier.replacingOccurrences(of: "_", with: "-")
        if let exact = languages.first(where: { $0.caseInsensitiveCompare(tag) == .orderedSame }) { return exact }
        guard let base = tag.split(separator: "-").first.map(String.init), !base.isEmpty else { return nil }
        return languages.first { $0.caseInsensitiveCompare(base) == .orderedSame }
    }

    /// The words of `key` in `language`; `nil` when it has none (the key, in the source language,
    /// is then the text).
    func text(_ key: String, in language: String) -> String? {
        tables[language]?[key]
    }

    /// Every key with words in `language`.
    func keys(in language: String) -> Set<String> {
        Set(tables[language]?.keys ?? [:].keys)
    }

    /// The parts of an `.xcstrings` file the screens read.
    private struct File: Decodable {
        var sourceLanguage: String
        var strings: [String: Entry]
    }

    private struct Entry: Decodable {
        var localizations: [String: Localization]?
    }

    private struct Localization: Decodable {
        var stringUnit: StringUnit?
    }

    private struct StringUnit: Decodable {
        var state: String
        var value: String
    }
}
