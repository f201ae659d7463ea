import Foundation
import Testing

/// How much an app sees after `import Keyway`: the public declarations of `Keyway`, and of the
/// `KeywayProtocol` types it re-exports one by one (`Sources/Keyway/Exports.swift`) with their
/// members, counted from the compiler's symbol graphs of the modules this test run built
/// (`swift-symbolgraph-extract`). Members the compiler synthesizes are left out: protocols'
/// default implementations, and the `init(from:)` and `init(rawValue:)` it derives, which have
/// no place in the source (no `location` in the graph). SPI (`@_spi(KeywayBackend)`, shared with
/// the server's backend package) is not counted: an app sees it only through an `@_spi` import.
/// The count is printed; it may shrink but not grow past ``ceiling``, now the ``target``.
@Suite("The public surface of import Keyway")
struct PublicSurfaceTests {
    /// The most declarations `import Keyway` may expose today.
    static let ceiling = 800
    /// Where the surface is headed: what an app needs, and the wire types its prompts mention.
    static let target = 800

    @Test func importKeywayExposesNoMoreThanItsCeiling() throws {
        let modules = try #require(Self.modulesFolder(), "The built modules' folder was not found beside the test bundle.")
        let tool = try #require(Self.symbolGraphTool(), "swift-symbolgraph-extract was not found beside the toolchain.")
        let exported = try Self.reexportedTypes()
        let counts = [
            try Self.count(module: "Keyway", modules: modules, tool: tool),
            try Self.count(module: "KeywayProtocol", modules: modules, tool: tool) { exported.contains($0) },
        ]
        let total = counts.reduce(0, +)
        print("import Keyway exposes \(total) public declarations (Keyway \(counts[0]), \(exported.count) KeywayProtocol types \(counts[1])); ceiling \(Self.ceiling), target \(Self.target)")
        // The count reads the modules: an empty graph means the extraction failed.
        #expect(counts.allSatisfy { $0 > 50 }, "The symbol graphs are nearly empty: \(counts)")
        #expect(total <= Self.ceiling, "import Keyway grew to \(total) public declarations (ceiling \(Self.ceiling)).")
    }

    /// The `KeywayProtocol` types `Keyway` re-exports: one `@_exported import <kind>
    /// KeywayProtocol.<Type>` line each. A re-export of the whole module fails the test.
    static func reexportedTypes() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Sources/Keyway/Exports.swift"), encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("@_exported import") {
            let words = line.split(separator: " ")
            #expect(words.count == 4, "Re-export one type per line, not a module: \(line)")
            guard words.count == 4, let name = words[3].split(separator: ".").last else { continue }
            names.insert(String(name))
        }
        #expect(!names.isEmpty, "Exports.swift re-exports nothing.")
        return names
    }

    /// The public symbols of `module` and of the extensions it makes to other modules' types;
    /// with `including`, only those under a top-level declaration it accepts.
    static func count(
        module: String, modules: URL, tool: [String], including: (String) -> Bool = { _ in true }
    ) throws -> Int {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("keyway-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool[0])
        process.arguments = Array(tool.dropFirst()) + [
            "-module-name", module, "-I", modules.path, "-target", try targetTriple(of: modules),
            "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", output.path,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift-symbolgraph-extract failed for \(module).")
        var total = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path)
        where file == "\(module).symbols.json" || file.hasPrefix("\(module)@")
        {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let symbols = graph?["symbols"] as? [[String: Any]] ?? []
            total += symbols.filter { symbol in
                guard symbol["location"] != nil else { return false }  // derived by the compiler
                guard let top = (symbol["pathComponents"] as? [String])?.first else { return false }
                return including(top)
            }.count
        }
        return total
    }

    /// `.build/<triple>/debug/Modules`: beside the test bundle that runs, or in the package's
    /// own `.build/debug`.
    static func modulesFolder() -> URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var candidates: [URL] = []
        var url = Bundle.main.bundleURL
        for _ in 0..<3 {
            candidates.append(url.appendingPathComponent("Modules"))
            url.deleteLastPathComponent()
        }
        candidates.append(root.appendingPathComponent(".build/debug").resolvingSymlinksInPath().appendingPathComponent("Modules"))
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Keyway.swiftmodule").path)
        }
    }

    /// The triple the modules were built for: the name of the build folder's parent
    /// (`.build/x86_64-unknown-linux-gnu/debug`), with the package's macOS deployment target on
    /// a Mac.
    static func targetTriple(of modules: URL) throws -> String {
        let triple = modules.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        #expect(triple.contains("-"), "Not a target triple: \(triple)")
        return triple.hasSuffix("-apple-macosx") ? triple + "14.0" : triple
    }

    /// The extraction tool: on the `PATH`, else through `xcrun` (Xcode's toolchain).
    static func symbolGraphTool() -> [String]? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swift-symbolgraph-extract"
            if FileManager.default.isExecutableFile(atPath: candidate) { return [candidate] }
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xcrun") {
            return ["/usr/bin/xcrun", "swift-symbolgraph-extract"]
        }
        return nil
    }
}
