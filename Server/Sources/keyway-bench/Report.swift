import Foundation

/// Formats the measures as Markdown, ready for `docs/performance.md`.
enum Report {
    struct Memory: Sendable {
        var idleBytes: Int
        var loadedBytes: Int
        var flows: Int
        /// Requests with a random 4,000-letter path segment sent after the flows, and the RSS then.
        var randomPathRequests: Int
        var afterRandomPathsBytes: Int
        /// The size of the `/metrics` exposition after them, when the admin token was given.
        var metricsBytes: Int?
        var bytesPerFlow: Double { flows > 0 ? Double(loadedBytes - idleBytes) / Double(flows) : 0 }
    }

    static func crypto(_ baseline: CryptoBaseline) -> String {
        """
        ### Raw ES256 with swift-crypto (one core)

        | Operation | Rate |
        | --- | ---: |
        | sign | \(rate(baseline.signsPerSecond))/s |
        | verify | \(rate(baseline.verifiesPerSecond))/s |

        """
    }

    static func sdk(_ measures: [SDKMicrobench.Measure]) -> String {
        var lines = [
            "### SDK client work per step (in-process, no network)", "",
            "| Work | Time per call |", "| --- | ---: |",
        ]
        for measure in measures {
            lines.append("| \(measure.name) | \(String(format: "%.1f", measure.microseconds)) µs |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func load(
        results: [LoadResult], halfLoad: [LoadResult], baseline: CryptoBaseline?, memory: Memory?,
        roundTrips: [RoundTrips.Measure] = [], notes: [String]
    ) -> String {
        var lines: [String] = []
        if let memory {
            lines += [
                "### Server memory", "",
                "| Measure | Value |", "| --- | ---: |",
                "| RSS at idle | \(kib(memory.idleBytes)) |",
                "| RSS with \(memory.flows) open flows | \(kib(memory.loadedBytes)) |",
                "| per open flow | \(String(format: "%.0f", memory.bytesPerFlow)) bytes |",
                "| RSS after \(memory.randomPathRequests) more requests with a random 4,000-letter path segment | \(kib(memory.afterRandomPathsBytes)) (\(memory.afterRandomPathsBytes >= memory.loadedBytes ? "+" : "−")\(kib(abs(memory.afterRandomPathsBytes - memory.loadedBytes)))) |",
            ]
            if let metrics = memory.metricsBytes { lines.append("| `/metrics` exposition after them | \(kib(metrics)) |") }
            lines.append("")
        }
        lines += [
            "### Peak throughput (closed loop: every user sends its next request as soon as the last one is answered)", "",
            "| Scenario | Users | Throughput | p50 | p90 | p99 | max | vs raw ES256 sign rate | Errors |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in results { lines.append(row(result, baseline: baseline)) }
        lines += [
            "",
            "### Latency at half of peak throughput (open loop: fixed arrival rate, latency from the scheduled start)", "",
            "| Scenario | Users | Offered rate | p50 | p90 | p99 | max | vs raw ES256 sign rate | Errors |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for result in halfLoad { lines.append(row(result, baseline: baseline)) }
        if !roundTrips.isEmpty {
            lines += [
                "",
                "### Round trips to PostgreSQL per request (each peak measure, its warm-up included; `BEGIN` and `COMMIT` count)", "",
                "| Scenario | Request | Requests | Round trips | per request |",
                "| --- | --- | ---: | ---: | ---: |",
            ]
            for measure in roundTrips {
                for route in measure.routes {
                    lines.append(
                        "| \(measure.scenario) | `\(route.route)` | \(rate(route.requests)) | \(rate(route.roundTrips)) | \(String(format: "%.1f", route.perRequest)) |"
                    )
                }
            }
        }
        if !notes.isEmpty {
            lines.append("")
            for note in notes { lines.append("- \(note)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ result: LoadResult, baseline: CryptoBaseline?) -> String {
        let ratio = baseline.map { String(format: "%.1f %%", result.throughput / $0.signsPerSecond * 100) } ?? "-"
        return
            "| \(result.scenario) | \(result.users) | \(rate(result.throughput))/s | \(ms(result.percentile(50))) | \(ms(result.percentile(90))) | \(ms(result.percentile(99))) | \(ms(result.maxMilliseconds)) | \(ratio) | \(result.errors) |"
    }

    private static func rate(_ value: Double) -> String {
        let rounded = Int(value.rounded())
        var digits = String(rounded)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped
    }

    private static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

    private static func kib(_ bytes: Int) -> String { "\(rate(Double(bytes) / 1024)) KiB" }
}
