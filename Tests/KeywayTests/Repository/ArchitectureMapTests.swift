import Foundation
import Testing

/// `docs/architecture.md` is the repository's one-page map: it stays under 150 lines, names every
/// module and every folder of the server, and every path its "How to add" recipes give exists.
@Suite("The architecture map")
struct ArchitectureMapTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func map() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    }

    /// The repository paths in backticks in `text` (`Sources/…`, `Server/…`, `Tests/…`, `docs/…`).
    static func paths(in text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
            .filter { path in ["Sources/", "Server/", "Tests/", "docs/", "scripts/"].contains { path.hasPrefix($0) } }
    }

    /// Those of `paths` that name nothing in the repository.
    static func missing(_ paths: [String]) -> [String] {
        paths.filter { !FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    }

    /// The folders directly in `path`.
    static func folders(in path: String) throws -> [String] {
        let url = root.appendingPathComponent(path)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    /// The places in `source` where a method would reach into the engine: an extension of
    /// `FlowEngine` itself (its `Context` may gain a method's accessors) or an engine parameter.
    static func engineReaches(in source: String) -> [String] {
        source.split(separator: "\n").map(String.init).filter { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { return false }
            return code.hasPrefix("extension FlowEngine {") || code.hasPrefix("extension FlowEngine:")
                || code.contains("engine: FlowEngine")
        }
    }

    /// "A method never extends the engine": no file under the server's `Methods/` extends
    /// `FlowEngine` or takes it as a parameter; methods act through `MethodContext`.
    @Test func noMethodExtendsTheEngine() throws {
        let methods = Self.root.appendingPathComponent("Server/Sources/KeywayServer/Methods")
        let files = try #require(FileManager.default.enumerator(atPath: methods.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 30, "The scan finds \(files.count) method files.")
        for file in files {
            let source = try String(contentsOf: methods.appendingPathComponent(file), encoding: .utf8)
            #expect(Self.engineReaches(in: source) == [], "Methods/\(file) reaches into the engine.")
        }
        // The check can fail.
        #expect(Self.engineReaches(in: "extension FlowEngine {\n    /// extension FlowEngine {").count == 1)
        #expect(Self.engineReaches(in: "func skip(_ context: inout FlowEngine.Context, engine: FlowEngine)").count == 1)
        #expect(Self.engineReaches(in: "extension FlowEngine.Context {").isEmpty)
    }

    @Test func fitsOnOnePage() throws {
        let lines = try Self.map().split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 150, "docs/architecture.md has \(lines) lines; the map stays under 150.")
    }

    @Test func everyPathOfTheRecipesExists() throws {
        let map = try Self.map()
        let start = try #require(map.range(of: "\n## How to add\n"))
        let end = map.range(of: "\n## ", range: start.upperBound..<map.endIndex)?.lowerBound ?? map.endIndex
        let paths = Self.paths(in: map[start.upperBound..<end])
        #expect(paths.count >= 20, "The recipes give \(paths.count) paths: the scan is not reading them.")
        #expect(Self.missing(paths) == [], "Paths in the map's recipes that do not exist.")
        // The check can fail.
        #expect(Self.missing(["Sources/NoSuchModule/NoSuchFile.swift"]) == ["Sources/NoSuchModule/NoSuchFile.swift"])
    }

    @Test func everyModuleAndServerFolderHasItsLine() throws {
        let map = try Self.map()
        let modules = try Self.folders(in: "Sources") + Self.folders(in: "Server/Sources")
        #expect(modules.count >= 15)
        for module in modules {
            #expect(map.contains("| `\(module)` |"), "The map has no line for the module \(module).")
        }
        let folders = try Self.folders(in: "Server/Sources/KeywayServer")
        #expect(folders.count >= 10)
        for folder in folders {
            #expect(map.contains("`\(folder)/`"), "The map does not name the server's folder \(folder)/.")
        }
    }
}
