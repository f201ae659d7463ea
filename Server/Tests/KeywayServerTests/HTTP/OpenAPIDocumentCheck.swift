import Foundation
import Testing

@testable import KeywayServer

/// Structural checks of an OpenAPI 3.1 document: the parts every consumer needs, unique
/// operation IDs, a response for every operation, path parameters declared for every template
/// segment, and every `$ref` pointing at something the document holds.
enum OpenAPIDocumentCheck {
    /// The HTTP methods a path item may hold.
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The bundled document, parsed.
    static func document() throws -> [String: Any] {
        let data = try #require(OpenAPIDocument.data, "openapi.json is missing from the KeywayServer resources")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// What is wrong with `document`, one sentence per problem; empty when nothing is.
    static func problems(in document: [String: Any]) -> [String] {
        var problems: [String] = []
        if document["openapi"] as? String != "3.1.0" { problems.append("openapi is not 3.1.0") }
        let info = document["info"] as? [String: Any]
        if (info?["title"] as? String ?? "").isEmpty || (info?["version"] as? String ?? "").isEmpty {
            problems.append("info needs a title and a version")
        }
        guard let paths = document["paths"] as? [String: [String: Any]], !paths.isEmpty else {
            return problems + ["paths is missing or empty"]
        }
        var operationIds: Set<String> = []
        for (path, item) in paths.sorted(by: { $0.key < $1.key }) {
            if !path.hasPrefix("/") { problems.append("\(path) does not start with /") }
            let templated = Set(
                path.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }
                    .map { String($0.dropFirst().dropLast()) })
            for (method, value) in item where methods.contains(method) {
                let label = "\(method.uppercased()) \(path)"
                guard let operation = value as? [String: Any] else {
                    problems.append("\(label) is not an object")
                    continue
                }
                if let id = operation["operationId"] as? String {
                    if !operationIds.insert(id).inserted { problems.append("\(label): operationId \(id) is used twice") }
                } else {
                    problems.append("\(label) has no operationId")
                }
                if (operation["responses"] as? [String: Any])?.isEmpty ?? true {
                    problems.append("\(label) has no responses")
                }
                let declared = Set(
                    (operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter -> String? in
                        let resolved = (parameter["$ref"] as? String).flatMap { resolve($0, in: document) } ?? parameter
                        return resolved["in"] as? String == "path" ? resolved["name"] as? String : nil
                    })
                if declared != templated {
                    problems.append("\(label) declares path parameters \(declared.sorted()), its path has \(templated.sorted())")
                }
            }
        }
        for reference in references(in: document) where resolve(reference, in: document) == nil {
            problems.append("$ref \(reference) points at nothing")
        }
        return problems
    }

    /// Every `$ref` in `value`.
    static func references(in value: Any) -> Set<String> {
        if let object = value as? [String: Any] {
            var found: Set<String> = []
            if let reference = object["$ref"] as? String { found.insert(reference) }
            for child in object.values { found.formUnion(references(in: child)) }
            return found
        }
        if let array = value as? [Any] {
            return array.reduce(into: []) { $0.formUnion(references(in: $1)) }
        }
        return []
    }

    /// The object a local `$ref` (`#/components/schemas/Step`) names, or `nil`.
    static func resolve(_ reference: String, in document: [String: Any]) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = (current as? [String: Any])?[key] else { return nil }
            current = next
        }
        return current as? [String: Any]
    }
}
