/// A client as a person recognises it, from its `User-Agent`: a browser and its system
/// ("Chrome on Linux", "Safari on iPhone"), or an app's own product name ("keyway", "Notes").
/// Coarse on purpose: enough to tell "my phone" from "a stranger's computer", never a version
/// or anything that identifies one machine.
enum ClientDescription {
    /// The description of `userAgent`, or `nil` when it says nothing recognisable.
    static func coarse(_ userAgent: String?) -> String? {
        guard let userAgent, !userAgent.isEmpty else { return nil }
        if let browser = browser(userAgent) {
            return system(userAgent).map { "\(browser) on \($0)" } ?? browser
        }
        // Not a browser: the first product token without its version (`keyway/1.2 (Linux)`).
        let product = userAgent.split(separator: " ").first.map { String($0.split(separator: "/").first ?? "") } ?? ""
        let name = product.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        return name.isEmpty ? nil : String(name.prefix(40))
    }

    private static func browser(_ agent: String) -> String? {
        // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
        let names: [(token: String, name: String)] = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
            ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
        ]
        guard agent.hasPrefix("Mozilla/") else { return nil }
        return names.first { agent.contains($0.token) }?.name
    }

    private static func system(_ agent: String) -> String? {
        let systems: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"),
            ("Macintosh", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
        ]
        return systems.first { agent.contains($0.token) }?.name
    }
}
