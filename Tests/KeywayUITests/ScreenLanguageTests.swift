import Foundation
import Keyway
import KeywayProtocol
import Testing

@testable import KeywayUI
@testable import KeywayPresentation

/// The words the screens write themselves, from the strings catalogue, in each of its languages.
@Suite("Screens in the user's language: the strings catalogue")
struct ScreenLanguageTests {
    /// The package's folder, from this file's path.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The catalogue as written, decoded with every state (the shipped one keeps `translated` only).
    static func catalogueFile() throws -> [String: Any] {
        let url = root.appending(path: "Sources/KeywayPresentation/Resources/Localizable.xcstrings")
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The string literals of `pattern`'s first group in the Swift files under `folder`.
    static func literals(under folder: String, matching pattern: String) throws -> Set<String> {
        let regex = try NSRegularExpression(pattern: pattern)
        var found: Set<String> = []
        let files = FileManager.default.enumerator(at: root.appending(path: folder), includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                found.insert(String(text[range]))
            }
        }
        return found
    }

    @Test func theCatalogueShipsWithTheSDKInEveryLanguageItNames() throws {
        let catalogue = StringCatalogue.shared
        #expect(catalogue.sourceLanguage == "en")
        #expect(catalogue.languages == ["en", "de", "fr"])
        #expect(ScreenLanguage.available == ["en", "de", "fr"])
        let file = try Self.catalogueFile()
        let strings = try #require(file["strings"] as? [String: [String: Any]])
        // Every key is translated into every language, and nothing waits for review.
        for language in ["de", "fr"] {
            #expect(catalogue.keys(in: language) == Set(strings.keys), "\(language) lacks some words")
        }
    }

    @Test func everyTranslationKeepsThePlaceholdersOfItsKey() throws {
        let placeholder = try NSRegularExpression(pattern: #"%(?:[0-9]+\$)?@"#)
        func placeholders(_ text: String) -> [String] {
            placeholder.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .compactMap { Range($0.range, in: text).map { String(text[$0]) } }.sorted()
        }
        let catalogue = StringCatalogue.shared
        for language in ["de", "fr"] {
            for key in catalogue.keys(in: language) {
                let text = try #require(catalogue.text(key, in: language))
                #expect(placeholders(text) == placeholders(key), "\(language): \(key) → \(text)")
            }
        }
    }

    @Test func everyKeyTheScreensAskForIsInTheCatalogueAndEveryKeyIsUsed() throws {
        let catalogue = StringCatalogue.shared
        let keys = catalogue.keys(in: "de")
        // The words the screens write: `language("…")` and `model.language("…")`.
        var asked: Set<String> = []
        var switched: Set<String> = []
        for folder in ["Sources/KeywayPresentation", "Sources/KeywayUI"] {
            asked.formUnion(try Self.literals(under: folder, matching: #"language\(\s*"((?:[^"\\]|\\.)*)""#))
            asked.formUnion(try Self.literals(under: folder, matching: #"language\(flowType == \.signup \? "([^"]+)""#))
            asked.formUnion(
                try Self.literals(under: folder, matching: #"language\(flowType == \.signup \? "[^"]+" : "([^"]+)""#))
            switched.formUnion(try Self.literals(under: folder, matching: #"(?:case [^:\n]+|default): "([^"]+)""#))
        }
        #expect(asked.count > 60)
        #expect(asked.subtracting(keys).isEmpty, "not in the catalogue: \(asked.subtracting(keys).sorted())")
        // The rest are the server's standard labels, or keys the screens choose in a switch.
        let server = try Self.literals(under: "Server/Sources/KeywayServer", matching: #"label: "([^"\\]+)""#)
        // And the sentences of the SDK's own field checks.
        let checks = try Self.literals(under: "Sources/KeywayProtocol/Flow", matching: #"invalid\("(.*)"\)"#)
            .map { $0.replacingOccurrences(of: #"\\\(.*\)"#, with: "%@", options: .regularExpression) }
        #expect(checks.count >= 7)
        let unused = keys.subtracting(asked).subtracting(server).subtracting(switched).subtracting(checks)
        #expect(unused.isEmpty, "neither asked for nor sent by the server: \(unused.sorted())")
    }

    @Test func aLanguageIsTheCataloguesClosestOrEnglish() {
        #expect(ScreenLanguage("de").identifier == "de")
        #expect(ScreenLanguage("de-AT").identifier == "de")
        #expect(ScreenLanguage("fr_CA").identifier == "fr")
        #expect(ScreenLanguage("FR").identifier == "fr")
        #expect(ScreenLanguage("ja").identifier == "en")
        #expect(ScreenLanguage("").identifier == "en")
        #expect(ScreenLanguage(preferring: ["ja", "fr-CH", "de"]).identifier == "fr")
        #expect(ScreenLanguage(preferring: []) == .english)
    }

    @Test func placeholdersAreFilledInOrderOrByPosition() {
        #expect(ScreenLanguage.substitute("Try again in %@.", ["9 s"]) == "Try again in 9 s.")
        #expect(ScreenLanguage.substitute("%2$@ before %1$@", ["a", "b"]) == "b before a")
        #expect(ScreenLanguage.substitute("100%% of %@", ["it"]) == "100% of it")
        #expect(ScreenLanguage.substitute("%@ and %@", ["one"]) == "one and ")
        #expect(ScreenLanguage.substitute("50% off", []) == "50% off")
        #expect(ScreenLanguage("de")("Try again in %@.", "9 s") == "Versuchen Sie es in 9 s erneut.")
        #expect(ScreenLanguage.english("Try again in %@.", "9 s") == "Try again in 9 s.")
    }

    @Test func aCodeStepInGermanAndFrench() throws {
        let step = try Steps.step(
            "enterCode",
            payload:
                #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"2026-11-24T10:10:00Z","resendAt":"2026-11-24T10:00:30Z","channel":"email","attemptsRemaining":1}"#,
            actions: [
                Steps.action("submitCode", "code", label: "Continue", fields: Steps.codeField),
                Steps.action("resend", "resend", label: "Send a new code"),
            ],
            messages: #"[{"level":"info","code":"codeSent","text":"We sent a 6-digit code to a•••@example.com."}]"#)
        let context = PromptContext(step: step)
        let prompt = try #require(Prompt(step: step))
        let german = Screen.make(
            update: .prompt(context, prompt), context: context, language: ScreenLanguage("de"))
        #expect(german.language.identifier == "de")
        #expect(german.title == "Code eingeben")
        #expect(german.primaryAction?.label == "Weiter")
        #expect(german.inputs.first?.label == "Code")
        #expect(german.action("resend")?.label == "Neuen Code senden")
        #expect(german.action("cancel")?.label == "Abbrechen")
        #expect(german.messages.map(\.text) == ["We sent a 6-digit code to a•••@example.com.", "Noch 1 Versuch."])
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-24T10:00:00Z"))
        #expect(
            german.countdowns.last.flatMap { $0.sentence(at: now, language: german.language) }
                == "Der Code läuft in 10:00 ab.")
        #expect(german.action("resend")?.label(at: now) == "Neuen Code senden (30 s)")

        let french = Screen.make(
            update: .prompt(context, prompt), context: context, language: ScreenLanguage("fr-FR"))
        #expect(french.title == "Saisissez le code")
        #expect(french.primaryAction?.label == "Continuer")
        #expect(french.action("cancel")?.label == "Annuler")
        #expect(
            french.countdowns.first.flatMap { $0.sentence(at: now, language: french.language) }
                == "Vous pourrez demander un nouveau code dans 30 s.")

        // A project's own words are shown as the server sent them; English is the server's words.
        let custom = try Steps.step(
            "confirmBooking", actions: [Steps.action("confirm", "confirm", label: "Ask the front desk")],
            info: "Your booking")
        let customScreen = Screen.make(
            update: .prompt(PromptContext(step: custom), .unrecognized(kind: custom.kind)),
            context: PromptContext(step: custom), language: ScreenLanguage("de"))
        #expect(customScreen.title == "Your booking")
        #expect(customScreen.primaryAction?.label == "Ask the front desk")
        #expect(customScreen.action("cancel")?.label == "Abbrechen")
        let english = Screen.make(update: .prompt(context, prompt), context: context, language: .english)
        #expect(english.title == "Enter the code")
        #expect(english.primaryAction?.label == "Continue")
        #expect(english.messages.last?.text == "1 attempt left.")
    }

    @Test func everyStepKindHasATitleInEveryLanguage() {
        let kinds: [StepKind] = [
            .enterCode, .selectMethod, .setupSms, .setupTotp, .enterTotp, .enterPassword, .form, .manageAccount,
            .awaitApproval, .redirect, .linkAccount, .accountExists, .passkeyRegister, .passkeyAuthenticate,
        ]
        for language in ScreenLanguage.available.map(ScreenLanguage.init) where language != .english {
            for kind in kinds {
                #expect(
                    Screen.defaultTitle(kind, language) != Screen.defaultTitle(kind, .english), "\(language) \(kind)")
            }
            for purpose in [MethodPurpose.primary, .secondFactor, .enrolment, .reverification] {
                #expect(Screen.instruction(for: purpose, language) != Screen.instruction(for: purpose, .english))
            }
        }
    }

    @Test func anInputsOwnChecksSpeakTheScreensLanguage() throws {
        let password = Field(name: "password", type: .password, required: true, label: "Password")
        let french = ScreenInput(field: password, kind: .newPassword(minimumLength: 12), language: ScreenLanguage("fr"))
        #expect(french.validate("short") == "Utilisez au moins 12 caractères.")
        #expect(french.validate(nil) == "Ce champ est obligatoire.")
        let english = ScreenInput(field: password, kind: .newPassword(minimumLength: 12), language: .english)
        #expect(english.validate("short") == "Use at least 12 characters.")
        #expect(english.validate(nil) == "This field is required.")
        // The field's own rules, as the SDK checks them, in German.
        let code = Screen.input(
            Field(name: "code", type: .code, label: "Code", minLength: 6, maxLength: 6, pattern: "^[0-9]{6}$"),
            ScreenLanguage("de"))
        #expect(code.validate("123") == "Geben Sie mindestens 6 Zeichen ein.")
        #expect(code.validate("1234567") == "Geben Sie höchstens 6 Zeichen ein.")
        #expect(code.validate("12345a") == "Dieser Wert hat nicht das erwartete Format.")
        let terms = Screen.input(Field(name: "terms", type: .checkbox, label: "Password"), ScreenLanguage("de"))
        #expect(terms.label == "Passwort")
        #expect(terms.validate("maybe") == "Antworten Sie mit Ja oder Nein.")
        #expect(terms.validate("no") == "Kreuzen Sie dieses Feld an, um fortzufahren.")
        let channel = Screen.input(
            Field(
                name: "channel", type: .select, label: "Method",
                options: [
                    FieldOption(value: "sms", label: "SMS codes"),
                    FieldOption(value: "totp", label: "Authenticator app"),
                ]),
            ScreenLanguage("fr"))
        #expect(channel.label == "Méthode")
        #expect(channel.validate("mail") == "Choisissez parmi : Codes par SMS, Application d’authentification.")
    }

    @Test func appleToolsBuiltTablesAreReadAsTheCatalogue() throws {
        // What Apple's tools make of the catalogue: a `.lproj` folder per language with a
        // Localizable.strings table (and no .xcstrings file).
        let folder = FileManager.default.temporaryDirectory.appending(path: "keyway-lproj-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (language, table) in [
            ("en", #""Cancel" = "Cancel";"#),
            ("de", #""Cancel" = "Abbrechen";"# + "\n" + #""Try again in %@." = "In %@ erneut versuchen.";"#),
        ] {
            let lproj = folder.appending(path: "\(language).lproj")
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data(table.utf8).write(to: lproj.appending(path: "Localizable.strings"))
        }
        let bundle = try #require(Bundle(url: folder))
        let catalogue = StringCatalogue(bundle: bundle)
        #expect(catalogue.languages == ["en", "de"])
        #expect(catalogue.text("Cancel", in: "de") == "Abbrechen")
        #expect(catalogue.text("Try again in %@.", in: "de") == "In %@ erneut versuchen.")
        #expect(catalogue.text("Done", in: "de") == nil)
    }

    @Test func everyPreviewScreenIsMadeInEveryLanguage() {
        let english = PreviewScreens.all(in: .english)
        #expect(english.count == 11)
        for language in ScreenLanguage.available.map(ScreenLanguage.init) {
            let screens = PreviewScreens.all(in: language)
            #expect(screens.map(\.name) == english.map(\.name))
            for (name, screen) in screens {
                guard case .step = screen.kind else {
                    Issue.record("\(language) \(name): \(screen.kind)")
                    continue
                }
                #expect(!screen.title.isEmpty && !screen.actions.isEmpty, "\(language) \(name)")
                #expect(screen.language == language)
            }
        }
        let german = PreviewScreens.all(in: ScreenLanguage("de"))
        for ((name, screen), (_, englishScreen)) in zip(german, english) {
            #expect(screen.title != englishScreen.title, "\(name) has the same title in German")
        }
        let wrongCode = PreviewScreens.wrongCode(ScreenLanguage("de"))
        #expect(wrongCode.banner?.code == .invalidCode)
        #expect(wrongCode.inputs.first?.error == "That code is not right.")
        let account = PreviewScreens.account(.english)
        #expect(account.displays.count == 3)
    }
}
