import Foundation

/// A small reader of the HTML the hosted pages emit (every attribute value double-quoted, `<`,
/// `>` and quotes escaped in text): the tags with their attributes, and what is wrong with the
/// nesting.
struct HTMLCheck {
    /// One start tag.
    struct Tag: Equatable {
        /// The element's name, in lower case.
        var name: String
        /// The attributes; a bare attribute (`required`) has an empty value.
        var attributes: [String: String]
    }

    /// The elements that have no end tag.
    static let voidElements: Set<String> = ["meta", "link", "input", "img", "br", "hr"]

    /// The document.
    let html: String
    /// Every start tag, in order.
    let tags: [Tag]
    /// What is wrong with the nesting of the tags, one sentence per problem.
    let problems: [String]

    /// Reads `html`.
    init(_ html: String) {
        self.html = html
        let tagPattern = try! NSRegularExpression(pattern: #"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(/?)>"#)
        let attributePattern = try! NSRegularExpression(pattern: #"([^\s=>/]+)(?:="([^"]*)")?"#)
        var tags: [Tag] = []
        var stack: [String] = []
        var problems: [String] = []
        let text = html as NSString
        for match in tagPattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            let closing = text.substring(with: match.range(at: 1)) == "/"
            let name = text.substring(with: match.range(at: 2)).lowercased()
            let selfClosing = text.substring(with: match.range(at: 4)) == "/"
            if closing {
                if stack.last == name {
                    stack.removeLast()
                } else {
                    problems.append("</\(name)> closes <\(stack.last ?? "nothing")>")
                }
                continue
            }
            var attributes: [String: String] = [:]
            let attributeText = text.substring(with: match.range(at: 3))
            let attributeString = attributeText as NSString
            for attribute in attributePattern.matches(
                in: attributeText, range: NSRange(location: 0, length: attributeString.length))
            {
                let key = attributeString.substring(with: attribute.range(at: 1)).lowercased()
                let value =
                    attribute.range(at: 2).location == NSNotFound ? "" : attributeString.substring(with: attribute.range(at: 2))
                if attributes[key] != nil { problems.append("<\(name)> repeats \(key)") }
                attributes[key] = value
            }
            tags.append(Tag(name: name, attributes: attributes))
            if !selfClosing && !Self.voidElements.contains(name) { stack.append(name) }
        }
        if !stack.isEmpty { problems.append("unclosed: \(stack.joined(separator: ", "))") }
        self.tags = tags
        self.problems = problems
    }

    /// The start tags named `name`.
    func tags(_ name: String) -> [Tag] { tags.filter { $0.name == name } }

    /// Every `id` on the page.
    var ids: [String] { tags.compactMap { $0.attributes["id"] } }

    /// The text between the start tag of the element with `id` and the next `<`.
    func text(ofId id: String) -> String? {
        guard let range = html.range(of: "id=\"\(id)\"") else { return nil }
        let rest = html[range.upperBound...]
        guard let start = rest.firstIndex(of: ">") else { return nil }
        let after = rest[rest.index(after: start)...]
        return String(after.prefix { $0 != "<" })
    }
}
