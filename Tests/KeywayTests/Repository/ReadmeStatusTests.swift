import Foundation
import Testing

/// The README's status stays true: it links every page of `docs/`, and its "Not yet" names no
/// feature one of those pages documents.
@Suite("The README's status")
struct ReadmeStatusTests {
    /// The repository root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The words a status line would name each documented feature by, with the page that
    /// documents it.
    static let documentedFeatures: [(page: String, words: [String])] = [
        ("federation.md", ["federation", "other provider", "google", "apple sign", "sign in with apple"]),
        ("passkeys.md", ["passkey", "webauthn"]),
        ("devices.md", ["trusted device", "approval"]),
        ("activation.md", ["powerauth", "device activation"]),
        ("protocol.md", ["magic link", "sign-in link", "guest"]),
        ("hosted-login.md", ["hosted page", "single sign-on", "openid provider", "consent"]),
        ("backend.md", ["keywaybackend", "backend kit"]),
        ("server.md", ["postgresql", "metrics", "smtp"]),
    ]

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The paragraph of the README that starts with "Not yet:", lower-cased.
    static func notYet(_ readme: String) throws -> String {
        let range = try #require(readme.range(of: "Not yet:"), "the README's status has no \"Not yet:\"")
        let rest = readme[range.lowerBound...]
        let end = rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex
        return rest[..<end].replacingOccurrences(of: "\n", with: " ").lowercased()
    }

    @Test func theReadmeLinksEveryPageOfTheDocs() throws {
        let readme = try Self.text("README.md")
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        #expect(!pages.isEmpty)
        for page in pages {
            #expect(readme.contains("](docs/\(page)"), "the README does not link docs/\(page)")
        }
    }

    @Test func notYetNamesNoFeatureTheDocsDocument() throws {
        let notYet = try Self.notYet(try Self.text("README.md"))
        for (page, words) in Self.documentedFeatures {
            // The page is there: the feature is documented.
            _ = try Self.text("docs/\(page)")
            for word in words {
                #expect(!notYet.contains(word), "\"Not yet\" names \(word), which docs/\(page) documents: \(notYet)")
            }
        }
    }

    /// The guard itself: a status naming a documented feature as missing is caught.
    @Test func theGuardCatchesAStaleStatus() throws {
        let stale = try Self.notYet("Working today: much.\nNot yet: federation to other providers, passkeys.\n\n## Next")
        let named = Self.documentedFeatures.flatMap(\.words).filter { stale.contains($0) }
        #expect(named.contains("federation") && named.contains("passkey"))
    }
}
