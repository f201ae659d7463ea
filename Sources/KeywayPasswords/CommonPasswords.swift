import Foundation

/// The 10,000 most common passwords, lowercased, read once from the module's
/// `common-passwords.txt` (zxcvbn 4.4.28, MIT licence; the file's header says more): the list
/// keyway-server refuses at sign-up and the device SDK's password strength warns about, one file
/// for both.
public enum CommonPasswords {
    /// The list, loaded on first use; empty when the resource is missing (then no password is
    /// reported as common, and the tests that count the list fail).
    public static let all: Set<String> = load()

    /// Whether `password`, lowercased, is in the list.
    public static func contains(_ password: String) -> Bool {
        all.contains(password.lowercased())
    }

    private static func load() -> Set<String> {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        var passwords = Set<String>(minimumCapacity: 10_000)
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            passwords.insert(line.lowercased())
        }
        return passwords
    }
}
