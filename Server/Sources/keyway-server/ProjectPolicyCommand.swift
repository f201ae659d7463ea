import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project policy …`: show and replace an application's policy.
struct ProjectPolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy", abstract: "Shows or replaces an application's policy.",
        subcommands: [Show.self, Replace.self])

    /// `project policy show`: the policy as JSON, signing secrets masked.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints the policy as JSON (signing secrets masked).")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        func run() async throws {
            let policy = try await options.withService { try await $0.policy(configId: configId) }
            try Output.json(policy)
        }
    }

    /// `project policy set`: validates and saves a policy file.
    struct Replace: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Replaces the policy with a JSON file, after checking every rule; nothing is saved when one is broken.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Option(help: "The policy as a JSON file.")
        var file: String

        @Flag(help: "Validate for a server running with --production (SMS then needs a webhook).")
        var production = false

        func run() async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("The policy file \(file) cannot be read.")
            }
            let saved = try await options.withService(devMode: !production) { service in
                try await service.setPolicy(try AdminService.decodePolicy(data), configId: configId)
            }
            Output.error("Policy saved for \(configId).")
            try Output.json(saved)
        }
    }
}
