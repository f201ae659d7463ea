import ArgumentParser
import Foundation

/// `keyway-bench targets`: each target of `docs/performance.md`, with the figure that meets it or not.
struct TargetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "targets", abstract: "Prints each performance target, the run's figure and whether it is met.")

    @Option(help: "The crypto baseline JSON written by `keyway-bench crypto`.")
    var crypto: String

    @Option(help: "The figures of the SQLite run (`load --figures`).")
    var sqlite: String

    @Option(help: "The figures of the PostgreSQL run with one instance.")
    var postgres: String?

    @Option(
        help: "Scale runs, as ENGINE:USERS:FIGURES (for example sqlite:10000:small.json); each engine's runs are compared with its smallest.",
        transform: { text in
            let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3, let users = Int(parts[1]) else { throw ValidationError("--scale wants ENGINE:USERS:FILE") }
            return ScaleRun(engine: parts[0], users: users, path: parts[2])
        })
    var scale: [ScaleRun] = []

    struct ScaleRun: Sendable {
        var engine: String
        var users: Int
        var path: String
    }

    func run() throws {
        let raw = try JSONDecoder().decode(CryptoBaseline.self, from: Data(contentsOf: URL(fileURLWithPath: crypto)))
            .signsPerSecond
        let sqlite = try Figure.read(sqlite)
        var rows: [(String, String, String, Bool)] = []
        func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }

        // 1. The HTTP floor.
        for scenario in ["JWKS GET", "discovery GET"] {
            guard let peak = sqlite.peak(scenario) else { continue }
            rows.append(("\(scenario) ≥ 50 % of raw ES256 sign", ">= 50 %", percent(peak.throughput / raw), peak.throughput / raw >= 0.5))
        }
        // 2. Tails at half of peak.
        for figure in sqlite where figure.mode == "open" {
            rows.append(("\(figure.scenario): p99 < 10 ms at half of peak", "< 10 ms", ms(figure.p99), figure.p99 < 10))
            rows.append(("\(figure.scenario): p99.9 < 25 ms at half of peak", "< 25 ms", ms(figure.p999), figure.p999 < 25))
        }
        // 3. Per-core rates.
        for (scenario, target) in [("refresh", 0.08), ("code redemption", 0.05), ("sign-in", 0.015)] {
            guard let peak = sqlite.peak(scenario) else { continue }
            rows.append(
                ("\(scenario) ≥ \(percent(target)) of raw ES256 sign", ">= \(percent(target))", percent(peak.throughput / raw),
                 peak.throughput / raw >= target))
        }
        // 4. PostgreSQL against SQLite.
        if let postgres = try postgres.map(Figure.read) {
            for scenario in ["code redemption", "refresh"] {
                guard let lite = sqlite.peak(scenario), let pg = postgres.peak(scenario) else { continue }
                let ratio = pg.throughput / lite.throughput
                rows.append(("PostgreSQL \(scenario) ≥ 50 % of SQLite's rate", ">= 50 %", percent(ratio), ratio >= 0.5))
            }
        }
        // 5. Scale: every run of an engine within ±10 % of its smallest.
        for engine in Set(scale.map(\.engine)).sorted() {
            let runs = scale.filter { $0.engine == engine }.sorted { $0.users < $1.users }
            guard let base = runs.first, runs.count > 1 else { continue }
            let baseFigures = try Figure.read(base.path)
            for run in runs.dropFirst() {
                let figures = try Figure.read(run.path)
                for scenario in ["sign-in", "code redemption", "refresh"] {
                    guard let small = baseFigures.peak(scenario), let large = figures.peak(scenario) else { continue }
                    let change = large.throughput / small.throughput - 1
                    rows.append(
                        ("\(engine), \(run.users) users against \(base.users): \(scenario) throughput within ±10 %", "±10 %",
                         String(format: "%+.1f %%", change * 100), abs(change) <= 0.10))
                    let p99Change = large.p99 / small.p99 - 1
                    rows.append(
                        ("\(engine), \(run.users) users against \(base.users): \(scenario) peak p99 within ±10 %", "±10 %",
                         String(format: "%+.1f %% (%@ → %@)", p99Change * 100, ms(small.p99), ms(large.p99)), abs(p99Change) <= 0.10))
                    if let smallHalf = baseFigures.half(scenario), let largeHalf = figures.half(scenario) {
                        let change = largeHalf.p99 / smallHalf.p99 - 1
                        rows.append(
                            ("\(engine), \(run.users) users against \(base.users): \(scenario) p99 at half of peak within ±10 %",
                             "±10 %", String(format: "%+.1f %% (%@ → %@)", change * 100, ms(smallHalf.p99), ms(largeHalf.p99)),
                             abs(change) <= 0.10))
                    }
                }
            }
        }
        var lines = ["### Targets", "", "| Target | Wanted | This run | Met |", "| --- | --- | ---: | --- |"]
        for (name, wanted, figure, met) in rows {
            lines.append("| \(name) | \(wanted) | \(figure) | \(met ? "yes" : "**no**") |")
        }
        print(lines.joined(separator: "\n") + "\n")
    }
}
