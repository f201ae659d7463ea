import Foundation
import Testing

/// Each folder of the server library opens with its own doc: a comment-only file
/// `README.<path with dots>.swift` (`Methods/Passkey/README.Methods.Passkey.swift`; the names
/// differ because a module may not compile two files of one name) whose first line names the
/// folder and what it is for, followed by one line per file and subfolder in it. The map in
/// `docs/architecture.md` stays a map; the file-level detail lives here, beside the files.
@Suite("Every server folder opens with its doc")
struct FolderDocTests {
    static let library = ArchitectureMapTests.root.appendingPathComponent("Server/Sources/KeywayServer")

    /// The name of the doc of the folder at `path` (relative to the library; "" for the library).
    static func docName(_ path: String) -> String {
        path.isEmpty ? "README.KeywayServer.swift" : "README.\(path.replacingOccurrences(of: "/", with: ".")).swift"
    }

    /// What is wrong with the doc `text` of the folder at `path` holding `entries` (its files,
    /// and its subfolders ending in `/`): an empty list when nothing is.
    static func problems(doc text: String, path: String, entries: [String]) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty }
        var problems: [String] = []
        if let code = lines.first(where: { !$0.hasPrefix("//") }) { problems.append("holds code: \(code)") }
        let title = path.isEmpty ? "KeywayServer/" : "\(path)/"
        if lines.first?.hasPrefix("// \(title) — ") != true { problems.append("its first line does not name \(title)") }
        let named = lines.compactMap { line -> String? in
            guard line.hasPrefix("// - `") else { return nil }
            return line.dropFirst("// - `".count).split(separator: "`", maxSplits: 1).first.map(String.init)
        }
        for entry in entries where named.filter({ $0 == entry }).count != 1 {
            problems.append("names \(entry) \(named.filter { $0 == entry }.count) times")
        }
        for name in named where !entries.contains(name) { problems.append("names \(name), which is not there") }
        return problems
    }

    @Test func everyFolderHasItsDocAndItNamesWhatIsThere() throws {
        let manager = FileManager.default
        let paths = try #require(manager.enumerator(atPath: Self.library.path)).compactMap { $0 as? String }
        var folders = [""]
        for path in paths where !path.hasPrefix("Resources") {
            var isFolder: ObjCBool = false
            if manager.fileExists(atPath: Self.library.appendingPathComponent(path).path, isDirectory: &isFolder),
                isFolder.boolValue
            {
                folders.append(path)
            }
        }
        #expect(folders.count >= 50, "The scan finds \(folders.count) folders.")
        for folder in folders {
            let url = folder.isEmpty ? Self.library : Self.library.appendingPathComponent(folder)
            let entries = try manager.contentsOfDirectory(atPath: url.path).compactMap { name -> String? in
                var isFolder: ObjCBool = false
                _ = manager.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
                if isFolder.boolValue { return name + "/" }
                return name.hasSuffix(".swift") && !name.hasPrefix("README.") ? name : nil
            }
            let docURL = url.appendingPathComponent(Self.docName(folder))
            guard let doc = try? String(contentsOf: docURL, encoding: .utf8) else {
                Issue.record("\(folder.isEmpty ? "KeywayServer" : folder)/ has no \(Self.docName(folder)).")
                continue
            }
            let problems = Self.problems(doc: doc, path: folder, entries: entries)
            #expect(problems.isEmpty, "\(Self.docName(folder)): \(problems.joined(separator: "; "))")
        }
    }

    @Test func theCheckCanFail() {
        let doc = "// Flows/ — the engine.\n//\n// - `A.swift`: a.\n// - `Gone.swift`: gone.\n"
        #expect(
            Self.problems(doc: doc, path: "Flows", entries: ["A.swift", "B.swift", "Sub/"]).sorted() == [
                "names B.swift 0 times", "names Gone.swift, which is not there", "names Sub/ 0 times",
            ])
        #expect(Self.problems(doc: "// Storage/ — x.\nlet x = 1\n", path: "Flows", entries: []).count == 2)
        #expect(Self.docName("Methods/Passkey") == "README.Methods.Passkey.swift")
    }
}
