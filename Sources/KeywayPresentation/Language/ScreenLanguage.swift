import Foundation
import KeywayProtocol

/// The language of the words the screens write themselves — titles and buttons the server leaves
/// out, countdowns, list headings, what the SwiftUI screens add — from KeywayPresentation's strings
/// catalogue (`Resources/Localizable.xcstrings`).
///
/// A label or title the server sends is looked up in the catalogue by its text, so the server's
/// standard wording (`Continue`, `Verify your email`) is translated too; words the catalogue does
/// not know (a project's own labels, the server's sentences) are shown as sent.
///
/// ```swift
/// let model = KeywayScreenModel(keyway: keyway, language: ScreenLanguage("de"))
/// ```
public struct ScreenLanguage: Sendable, Hashable, CustomStringConvertible {
    /// The catalogue's language these words are in (`en`, `de`).
    public let identifier: String

    /// The language of the catalogue closest to `identifier` (a BCP 47 tag such as `de-AT` or
    /// `fr_CA`): the catalogue's language of that exact tag, else of its base language, else
    /// English.
    ///
    /// - Parameter identifier: The language wanted.
    public init(_ identifier: String) {
        self.identifier = StringCatalogue.shared.closest(to: identifier) ?? StringCatalogue.shared.sourceLanguage
    }

    /// The first of `preferred` the catalogue has (by exact tag, then base language), else English.
    ///
    /// - Parameter preferred: Languages in order of preference (`Locale.preferredLanguages`).
    public init(preferring preferred: [String]) {
        let catalogue = StringCatalogue.shared
        self.identifier = preferred.lazy.compactMap(catalogue.closest(to:)).first ?? catalogue.sourceLanguage
    }

    /// English, the catalogue's source language.
    public static let english = ScreenLanguage(identifier: "en")

    /// The language the app runs in when the catalogue has it, else English: on Apple platforms
    /// the app's own localizations decide (`Bundle.main.preferredLocalizations`), so the screens
    /// speak the language of the rest of the app; elsewhere the user's preferred languages as
    /// Foundation reports them (`Locale.preferredLanguages`, which is English on Linux whatever
    /// `LANG` says: a Linux program passes the language it wants).
    public static var current: ScreenLanguage {
        #if canImport(Darwin)
            ScreenLanguage(preferring: Bundle.main.preferredLocalizations)
        #else
            ScreenLanguage(preferring: Locale.preferredLanguages)
        #endif
    }

    /// The languages the catalogue has, English first.
    public static var available: [String] { StringCatalogue.shared.languages }

    public var description: String { identifier }

    private init(identifier: String) {
        self.identifier = identifier
    }

    /// The catalogue's words for `key` (its English text) with each `%@` (or `%1$@`, `%2$@`…)
    /// replaced by `arguments` in order; English where the language has no translation.
    ///
    /// - Parameters:
    ///   - key: The English words, as the catalogue keys them.
    ///   - arguments: The values of the placeholders, in order.
    /// - Returns: The words in this language.
    public func callAsFunction(_ key: String, _ arguments: String...) -> String {
        Self.substitute(translation(of: key) ?? key, arguments)
    }

    /// The catalogue's words for `key` in this language; `nil` in English, whose words are the
    /// keys (the catalogue is not even read then).
    private func translation(of key: String) -> String? {
        guard identifier != Self.english.identifier else { return nil }
        return StringCatalogue.shared.text(key, in: identifier)
    }

    /// Words the server sent, translated when the catalogue knows them (the server's standard
    /// labels), else as sent.
    ///
    /// - Parameter text: The words the server sent.
    /// - Returns: Their translation, or the words themselves.
    public func sent(_ text: String) -> String {
        translation(of: text) ?? text
    }

    /// Optional words the server sent, translated when known; `nil` stays `nil`.
    ///
    /// - Parameter text: The words the server sent, if any.
    /// - Returns: Their translation, the words themselves, or `nil`.
    public func sent(_ text: String?) -> String? {
        text.map(sent)
    }

    /// `format` with its `%@` and positional `%n$@` placeholders replaced by `arguments` (a
    /// translation may put them in another order); `%%` is a percent sign.
    static func substitute(_ format: String, _ arguments: [String]) -> String {
        guard format.contains("%") else { return format }
        var result = ""
        var next = 0
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            index = format.index(after: index)
            guard character == "%", index < format.endIndex else {
                result.append(character)
                continue
            }
            if format[index] == "%" {
                result.append("%")
                index = format.index(after: index)
                continue
            }
            // `%@` or `%n$@`.
            var digits = ""
            var cursor = index
            while cursor < format.endIndex, format[cursor].isASCII, format[cursor].isNumber {
                digits.append(format[cursor])
                cursor = format.index(after: cursor)
            }
            if !digits.isEmpty, cursor < format.endIndex, format[cursor] == "$" {
                cursor = format.index(after: cursor)
            } else {
                digits = ""
                cursor = index
            }
            guard cursor < format.endIndex, format[cursor] == "@" else {
                result.append(character)
                continue
            }
            let position = digits.isEmpty ? next : (Int(digits) ?? 0) - 1
            next = position + 1
            result += arguments.indices.contains(position) ? arguments[position] : ""
            index = format.index(after: cursor)
        }
        return result
    }
}
