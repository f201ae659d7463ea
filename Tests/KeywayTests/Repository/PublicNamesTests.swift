import Foundation
import Testing

/// An app imports several of the SDK's modules at once (`Keyway` with `KeywayUI`, `KeywayPowerAuthClient`
/// or `KeywayPowerAuth`; a backend `KeywayBackend` beside them): a type name declared public in two
/// of them cannot be written in that app without its module's name. The server reads the wire
/// types of `KeywayProtocol`, `KeywayJOSE` and `KeywayPowerAuth`; a type of its own with one of
/// their names would be a second model of the same thing.
@Suite("Public type names: each declared in one module")
struct PublicNamesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The modules an app or an app's backend imports.
    static let sdkModules = [
        "Sources/Keyway", "Sources/KeywayProtocol", "Sources/KeywayJOSE", "Sources/KeywayUI", "Sources/KeywayPowerAuth",
        "Sources/KeywayPowerAuthClient", "Sources/KeywayCBOR", "Sources/KeywayPowerAuthWire", "Sources/KeywayPasswords",
        "Server/Sources/KeywayBackend",
    ]

    /// The SDK modules the server imports.
    static let serverImports = [
        "Sources/KeywayProtocol", "Sources/KeywayJOSE", "Sources/KeywayPowerAuth", "Sources/KeywayCBOR",
        "Sources/KeywayPowerAuthWire", "Sources/KeywayPasswords",
    ]

    @Test func noPublicTypeNameIsDeclaredInTwoOfTheSDKsModules() throws {
        var modules: [String: [String]] = [:]
        for module in Self.sdkModules {
            for name in try Self.typeNames(in: module, publicOnly: true) {
                modules[name, default: []].append(module)
            }
        }
        let clashes = modules.filter { $0.value.count > 1 }.map { "\($0.key): \($0.value.joined(separator: ", "))" }.sorted()
        print("Public type names across the SDK's \(Self.sdkModules.count) modules: \(modules.count)")
        #expect(modules.count > 200, "The scan found too few declarations to be reading the sources.")
        #expect(clashes.isEmpty, "Declared public in two modules: \(clashes.joined(separator: "; "))")
    }

    @Test func theServerDeclaresNoTypeNamedAsAPublicTypeOfTheModulesItImports() throws {
        var imported: [String: String] = [:]
        for module in Self.serverImports {
            for name in try Self.typeNames(in: module, publicOnly: true) { imported[name] = module }
        }
        let shadows = try Self.typeNames(in: "Server/Sources/KeywayServer", publicOnly: false)
            .compactMap { name in imported[name].map { "\(name) (\($0))" } }.sorted()
        #expect(shadows.isEmpty, "The server declares its own \(shadows.joined(separator: ", "))")
    }

    @Test func theScanReadsDeclarationsAsWritten() {
        let source = """
            public struct A {}
            @MainActor public final class B {}
            enum C {}
            package protocol D {}
            public typealias E = Int
                public struct Nested {}
            public extension F {}
            """
        #expect(Self.typeNames(of: source, publicOnly: true) == ["A", "B", "E"])
        #expect(Self.typeNames(of: source, publicOnly: false) == ["A", "B", "C", "D", "E"])
    }

    /// The top-level type names declared in a folder's Swift files.
    static func typeNames(in folder: String, publicOnly: Bool) throws -> Set<String> {
        let directory = root.appending(path: folder)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        var names: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            names.formUnion(typeNames(of: try String(contentsOf: file, encoding: .utf8), publicOnly: publicOnly))
        }
        return names
    }

    /// The type names a file declares at its top level (a declaration that starts its line).
    static func typeNames(of source: String, publicOnly: Bool) -> Set<String> {
        let declaration = /^(?:@\w+(?:\([^)]*\))?\s+)*(?<access>(?:public|open|package|internal|fileprivate|private)\s+)?(?:(?:final|indirect|nonisolated)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(?<name>\w+)/
            .anchorsMatchLineEndings()
        var names: Set<String> = []
        for match in source.matches(of: declaration) {
            let access = match.output.access.map { $0.trimmingCharacters(in: .whitespaces) }
            if publicOnly, access != "public", access != "open" { continue }
            names.insert(String(match.output.name))
        }
        return names
    }
}
