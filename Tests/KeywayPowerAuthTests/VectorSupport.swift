import Crypto
import Foundation
import KeywayPowerAuth
import Testing

/// One case of a published PowerAuth vector file: its `input` and `output` members, all strings.
struct VectorCase: Sendable, CustomTestStringConvertible {
    let file: String
    let index: Int
    let input: [String: String]
    let output: [String: String]

    var testDescription: String { "\(file) #\(index)" }

    /// An input or output member, which must exist.
    func value(_ key: String) throws -> String {
        if let value = input[key] ?? output[key] { return value }
        throw VectorError.missing(key)
    }

    /// A Base64 member decoded.
    func bytes(_ key: String) throws -> Data {
        guard let data = Data(base64Encoded: try value(key)) else { throw VectorError.missing(key) }
        return data
    }

    /// A Base64 member as a symmetric key.
    func key(_ key: String) throws -> SymmetricKey { SymmetricKey(data: try bytes(key)) }
}

enum VectorError: Error {
    case missing(String)
}

/// The vector files copied under `Vectors/` (Apache-2.0, see `Vectors/README.md`).
enum Vectors {
    private struct File: Decodable {
        struct Case: Decodable {
            let input: [String: String]
            let output: [String: String]
        }
        let data: [Case]
    }

    /// The cases of a `{"description", "data": [{"input", "output"}]}` file; empty when it cannot be
    /// read (each suite also checks the count, so a missing file fails).
    static func load(_ name: String) -> [VectorCase] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"),
            let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode(File.self, from: data)
        else { return [] }
        return file.data.enumerated().map { VectorCase(file: name, index: $0.offset, input: $0.element.input, output: $0.element.output) }
    }
}

extension Vectors {
    /// The cases of an ECIES file, `{"e2ee_test_vectors_…_scope": [{…}]}`, each one flat object of
    /// strings (kept as the case's `input`).
    static func loadE2EE(_ name: String) -> [VectorCase] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors"),
            let data = try? Data(contentsOf: url),
            let file = try? JSONDecoder().decode([String: [[String: String]]].self, from: data),
            let cases = file.values.first
        else { return [] }
        return cases.enumerated().map { VectorCase(file: name, index: $0.offset, input: $0.element, output: [:]) }
    }
}

extension SymmetricKey {
    var bytes: Data { withUnsafeBytes { Data($0) } }
}
