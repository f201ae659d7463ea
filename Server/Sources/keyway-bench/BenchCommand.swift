import ArgumentParser
import Foundation

/// `keyway-bench`: the measuring instruments behind `scripts/bench`.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyway-bench",
        abstract: "Measures keyway-server and the Keyway SDK.",
        discussion: "scripts/bench runs these in order, with the server and the load generator pinned to separate cores.",
        subcommands: [
            CryptoCommand.self, SDKCommand.self, LoadCommand.self, SeedCommand.self, TargetsCommand.self, PasswordFloodCommand.self,
            AnonymousStorageCommand.self,
        ])
}

/// The running dev-mode server a command drives.
struct ServerTarget: ParsableArguments {
    @Option(help: "The server's host.")
    var host = "127.0.0.1"

    @Option(help: "The server's port.")
    var port: Int

    @Option(help: "The dev application's config ID.")
    var configId: String
}

/// Writes a line to standard error (progress); the report goes to standard output.
func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// `keyway-bench crypto`: the raw ES256 rates on this core.
struct CryptoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto", abstract: "Measures raw ES256 sign and verify rates with swift-crypto on this core.")

    @Option(help: "Seconds per measure.")
    var seconds = 2.0

    @Option(help: "Write the result as JSON to this file.")
    var output: String?

    func run() throws {
        let baseline = try CryptoBaseline.measure(seconds: seconds)
        let json = try JSONEncoder().encode(baseline)
        if let output {
            try json.write(to: URL(fileURLWithPath: output))
        }
        print(Report.crypto(baseline))
    }
}

/// `keyway-bench sdk`: the SDK's per-step client work.
struct SDKCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdk", abstract: "Times the SDK's per-step client work in-process (no network).")

    @Option(help: "Seconds per measure.")
    var seconds = 1.0

    func run() async throws {
        print(Report.sdk(try await SDKMicrobench.run(secondsPerMeasure: seconds)))
    }
}
