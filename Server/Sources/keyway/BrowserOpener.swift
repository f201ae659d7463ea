import Foundation

/// Opens a URL in the user's browser with the system's opener — `open` on macOS, `xdg-open`
/// elsewhere — when it exists. Never fails: without an opener, or when it fails, the user opens
/// the printed URL by hand.
enum BrowserOpener {
    /// The opener's name on this system.
    static var command: String {
        #if os(macOS)
            "open"
        #else
            "xdg-open"
        #endif
    }

    /// Runs the opener with `url`, its output discarded; `false` when there is none or it could
    /// not start.
    @discardableResult
    static func open(_ url: URL) -> Bool {
        guard let executable = locate(command) else { return false }
        let process = Process()
        process.executableURL = executable
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        return true
    }

    /// `name` in one of the `PATH` folders, when it is executable there.
    static func locate(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
