import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tests keep their files (databases, CLI homes, storage files): in memory, on the
/// tmpfs at `/dev/shm` where there is one, else in the system's temporary folder. Still real
/// files, written and read through the file system — but a disk that is busy writing back a
/// build's output (the machine CI shares) can hold any thread that writes to it for seconds, and
/// a test server whose threads are held answers nobody.
///
/// Each test process has a folder of its own, removed when the process exits; folders that
/// processes which no longer run left behind are removed on the next start.
public enum TestFiles {
    private static let prefix = "keyway-tests-"

    /// The folder for a test's files.
    public static let directory: URL = {
        let shared = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: shared.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: shared.path)
        else { return FileManager.default.temporaryDirectory }
        removeAbandoned(in: shared)
        let mine = shared.appendingPathComponent("\(prefix)\(getpid())", isDirectory: true)
        guard (try? FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)) != nil else {
            return FileManager.default.temporaryDirectory
        }
        atexit { TestFiles.removeOwn() }
        return mine
    }()

    private static func removeOwn() {
        try? FileManager.default.removeItem(atPath: "/dev/shm/\(prefix)\(getpid())")
    }

    private static func removeAbandoned(in folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
