import Crypto
import Foundation
import KeywayJOSE

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The key-encryption key every secret the server keeps at rest is sealed with: the signing
/// private keys and the server's own secret keys (the HMAC keys of one-time codes and refresh
/// tokens, the DPoP nonce and client-secret keys, the sealing key). It lives outside the
/// database — `KEYWAY_MASTER_KEY`, `--master-key-file`, or in dev mode a file the server makes —
/// so that a copy of the database alone reveals none of them.
///
/// A sealed value is `kwk1.KEY_ID.BASE64URL(nonce ‖ ciphertext ‖ tag)`: AES-256-GCM, with the
/// secret's name as additional data (a value moved to another name does not open), and the ID
/// of the master key that sealed it (the first eight bytes of a SHA-256 of the key, in hex), so
/// that a wrong key is named as such.
public struct MasterKey: Sendable, Equatable {
    let key: SymmetricKey
    /// Identifies the key without revealing it.
    public let id: String

    /// The prefix of sealed values.
    static let prefix = "kwk1."

    public static func == (lhs: MasterKey, rhs: MasterKey) -> Bool { lhs.id == rhs.id }

    /// A key from 32 bytes.
    public init(bytes: Data) throws(ConfigurationError) {
        guard bytes.count == 32 else {
            throw ConfigurationError("The master key must be 32 bytes (44 characters of base64).")
        }
        key = SymmetricKey(data: bytes)
        id = SHA256.hash(data: Data("keyway master key id".utf8) + bytes).prefix(8)
            .map { String(format: "%02x", $0) }.joined()
    }

    /// A key from its base64 (or base64url) text, as `KEYWAY_MASTER_KEY` and key files hold it.
    public init(text: String) throws(ConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var base64 = trimmed.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let bytes = Data(base64Encoded: base64) else {
            throw ConfigurationError("The master key is not base64: write 32 random bytes as base64 (openssl rand -base64 32).")
        }
        try self.init(bytes: bytes)
    }

    /// A new random key.
    public static func generate() -> MasterKey {
        // 32 bytes always make a key.
        try! MasterKey(bytes: Data(SecureRandom.bytes(32)))
    }

    /// The key as text for a key file or the environment.
    public var text: String { key.withUnsafeBytes { Data($0).base64EncodedString() } }

    /// Where dev mode keeps the master key of a SQLite database: `master.key` beside the file.
    static func devPath(besideSQLite path: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("master.key")
    }

    /// Reads the key file at `path` (its first line). A file other users can change is refused
    /// (``SecretFile/refusal(path:what:)``).
    public static func read(path: String) throws(ConfigurationError) -> MasterKey {
        if let refusal = SecretFile.refusal(path: path, what: "master key file") { throw ConfigurationError(refusal) }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError("The master key file \(path) cannot be read.")
        }
        return try MasterKey(text: contents.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
    }

    /// Reads the key file at `path`, or creates it (`0600`, in a folder created `0700`) with a new key.
    static func readOrCreate(path: String) throws -> MasterKey {
        if FileManager.default.fileExists(atPath: path) { return try read(path: path) }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let key = generate()
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data((key.text + "\n").utf8), attributes: [.posixPermissions: 0o600])
        else { throw ConfigurationError("The master key file \(path) cannot be created.") }
        return key
    }

    /// Seals `value` kept under `name`.
    func seal(_ value: String, name: String) throws -> String {
        let box = try AES.GCM.seal(Data(value.utf8), using: key, authenticating: Data(name.utf8))
        guard let combined = box.combined else { throw StorageError(description: "A secret could not be sealed.") }
        return Self.prefix + id + "." + Base64URL.encode(combined)
    }

    /// Whether `stored` is a sealed value (of any key).
    static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// Opens a value sealed under `name`.
    ///
    /// - Throws: ``ConfigurationError`` naming the problem: sealed with another master key, or
    ///   not opening with this one (a changed value or name).
    func open(_ stored: String, name: String) throws(ConfigurationError) -> String {
        let parts = stored.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, "\(parts[0])." == Self.prefix else {
            throw ConfigurationError("The secret \(name) is not sealed: start the server with its master key once to seal it.")
        }
        guard parts[1] == id else {
            throw ConfigurationError(
                "The secret \(name) was sealed with another master key (\(parts[1])); the key given is \(id). Start the server with the master key the database was set up with."
            )
        }
        guard let combined = Base64URL.decode(String(parts[2])),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Data(name.utf8)),
            let value = String(data: plain, encoding: .utf8)
        else { throw ConfigurationError("The secret \(name) does not open with the master key: it was changed.") }
        return value
    }
}
