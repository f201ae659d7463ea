import Foundation

/// The permissions a file holding a secret (the master key, the admin token) must have. A file
/// other users can write is refused: one of them could put in a key of their own and read every
/// secret sealed after. A file other users can read is accepted with a warning (container secret
/// volumes mount files `0644` by default), which names the `chmod` that mends it.
public enum SecretFile {
    /// Why the secret file at `path` is refused, or `nil` when it is not (a file that cannot be
    /// inspected is left to the read that follows, which names it).
    public static func refusal(path: String, what: String) -> String? {
        guard let mode = permissions(path), mode & 0o022 != 0 else { return nil }
        return "The \(what) \(path) can be changed by other users (mode \(octal(mode))): run chmod 600 \(path) (and keep its folder closed to them)."
    }

    /// A warning for the secret file at `path` when other users can read it, or `nil`.
    public static func warning(path: String, what: String) -> String? {
        guard let mode = permissions(path), mode & 0o044 != 0, mode & 0o022 == 0 else { return nil }
        return "the \(what) \(path) can be read by other users (mode \(octal(mode))): run chmod 600 \(path)"
    }

    /// The permission bits of the file at `path`, or `nil` when it cannot be inspected.
    static func permissions(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? NSNumber
        else { return nil }
        return mode.intValue & 0o777
    }

    private static func octal(_ mode: Int) -> String {
        "0" + String(mode, radix: 8)
    }
}
