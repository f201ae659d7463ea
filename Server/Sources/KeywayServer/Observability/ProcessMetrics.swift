import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's own metrics under the names every Prometheus client library gives them, read
/// when scraped: CPU time, memory, file descriptors and start time (Linux reads `/proc/self`;
/// elsewhere the CPU time and the descriptor limit only).
enum ProcessMetrics {
    /// The metrics' exposition lines, each with its `# HELP` and `# TYPE`.
    static func exposition() -> String {
        var text = ""
        func add(_ name: String, _ type: String, _ help: String, _ value: Double?) {
            guard let value, value.isFinite else { return }
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(format(value))\n"
        }
        let sample = read()
        add("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", sample.cpuSeconds)
        add("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", sample.residentBytes)
        add("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", sample.virtualBytes)
        add("process_open_fds", "gauge", "Number of open file descriptors.", sample.openDescriptors)
        add("process_max_fds", "gauge", "Maximum number of open file descriptors.", sample.maxDescriptors)
        add("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.", sample.startTime)
        return text
    }

    /// One reading; a value the platform does not give is `nil` and left out.
    struct Sample: Equatable {
        var cpuSeconds: Double?
        var residentBytes: Double?
        var virtualBytes: Double?
        var openDescriptors: Double?
        var maxDescriptors: Double?
        var startTime: Double?
    }

    static func read() -> Sample {
        var sample = Sample()
        var limit = rlimit()
        #if os(Linux)
            let limited = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0
        #else
            let limited = getrlimit(RLIMIT_NOFILE, &limit) == 0
        #endif
        // RLIM_INFINITY is all ones on every platform (Glibc's macro does not import into Swift).
        if limited, limit.rlim_cur != rlim_t.max {
            sample.maxDescriptors = Double(limit.rlim_cur)
        }
        #if os(Linux)
            if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
                let fields = statFields(stat)
            {
                let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
                let page = Double(sysconf(Int32(_SC_PAGESIZE)))
                // Fields 14 and 15 (utime, stime) and 22 (starttime) in clock ticks, 23 (vsize) in
                // bytes, 24 (rss) in pages; `fields` starts at field 3.
                if ticks > 0, let user = Double(fields[11]), let system = Double(fields[12]) {
                    sample.cpuSeconds = (user + system) / ticks
                }
                sample.virtualBytes = Double(fields[20])
                if let pages = Double(fields[21]) { sample.residentBytes = pages * page }
                if ticks > 0, let started = Double(fields[19]), let boot = bootTime() {
                    sample.startTime = boot + started / ticks
                }
            }
            if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
                sample.openDescriptors = Double(descriptors.count)
            }
        #else
            var usage = rusage()
            if getrusage(RUSAGE_SELF, &usage) == 0 {
                sample.cpuSeconds =
                    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
                    + Double(usage.ru_stime.tv_usec) / 1e6
            }
        #endif
        return sample
    }

    /// The fields of `/proc/self/stat` after the command name (which may hold spaces and
    /// parentheses: the fields start after its last `)`), from field 3 (the state) on.
    static func statFields(_ stat: String) -> [String]? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ").map(String.init)
        return fields.count >= 22 ? fields : nil
    }

    /// When the machine booted, seconds since 1970 (`btime` of `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// A value as the exposition format writes it: whole numbers without a fraction.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
