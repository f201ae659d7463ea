import Foundation

/// Resident memory of a process, read from `/proc/PID/status` (Linux).
enum ProcessMemory {
    /// `VmRSS` of `pid` in bytes.
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw BenchFailure("VmRSS not found for process \(pid).") }
        return kib * 1024
    }
}
