import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The permissions of a SQLite database's files. The file holds the signing key and every server
/// secret, so it is readable by its owner only: a new folder is made 0700, a new database file
/// 0600 (SQLite gives its `-wal` and `-shm` files the database file's permissions), and an
/// existing file or log with wider permissions is narrowed to 0600.
enum DatabaseFiles {
    /// Makes the folder and the empty database file with owner-only permissions when they do not
    /// exist yet, and narrows existing ones.
    static func secure(path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // O_EXCL: made here with 0600 from the start (an empty file is an empty SQLite database),
        // or already there.
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw ConfigurationError(
                "The database file \(path) could not be created: \(String(cString: strerror(errno))).")
        }
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_mode & 0o077 != 0 else { continue }
            guard chmod(file, 0o600) == 0 else {
                throw ConfigurationError(
                    "The database file \(file) is readable by others and could not be made private: \(String(cString: strerror(errno))).")
            }
        }
    }
}
