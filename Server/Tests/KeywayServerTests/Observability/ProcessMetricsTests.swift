import Foundation
import Testing

@testable import KeywayServer

/// The process's metrics: the fields of `/proc/self/stat` read past the command name, whole
/// numbers written without a fraction, and each metric with its HELP and TYPE lines.
@Suite("Process metrics")
struct ProcessMetricsTests {
    @Test func statFieldsStartAfterTheLastParenthesis() throws {
        // A command name with a space and a parenthesis, as the kernel writes it.
        let stat = "4242 (keyway (server) 1) S 1 4242 4242 0 -1 4194560 1200 0 0 0 150 50 0 0 20 0 12 0 987654 123456789 4321"
            + " 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
        let fields = try #require(ProcessMetrics.statFields(stat))
        #expect(fields[0] == "S")
        #expect(fields[11] == "150" && fields[12] == "50")  // utime, stime
        #expect(fields[19] == "987654")  // starttime
        #expect(fields[20] == "123456789" && fields[21] == "4321")  // vsize, rss
        #expect(ProcessMetrics.statFields("no parenthesis here") == nil)
        #expect(ProcessMetrics.statFields("1 (x) S 1 2") == nil)
    }

    @Test func valuesAreWrittenAsTheExpositionFormatWantsThem() {
        #expect(ProcessMetrics.format(12) == "12")
        #expect(ProcessMetrics.format(1.5) == "1.5")
        #expect(ProcessMetrics.format(1_700_000_000) == "1700000000")
    }

    @Test func theExpositionHasHelpAndTypeForEachMetric() {
        let text = ProcessMetrics.exposition()
        #expect(text.contains("# HELP process_cpu_seconds_total "))
        #expect(text.contains("# TYPE process_cpu_seconds_total counter"))
        #if os(Linux)
            for name in ["process_resident_memory_bytes", "process_open_fds", "process_start_time_seconds"] {
                #expect(text.contains("# TYPE \(name) gauge"), "\(name)")
            }
        #endif
    }
}
