import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer

/// `keyway-server keys …`: the token signing keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Lists and rotates the keys tokens are signed with.",
        subcommands: [List.self, Rotate.self])

    /// `keys list`: the published keys and their states, as JSON.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the published signing keys: the active one, the next one, and retired ones still published.")
        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            try Output.json(try await options.withService { try await $0.signingKeys() })
        }
    }

    /// `keys rotate`: publishes the next key now; it signs after the pre-publication time.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publishes a new signing key now; it signs once the pre-publication time has passed, and the current key stays published until its tokens have expired. A rotation already under way is printed unchanged.")
        @OptionGroup var options: DatabaseOptions

        @Option(help: "Seconds the new key is published before it signs (0-604800).")
        var prePublication = 3600

        func run() async throws {
            let rotation = try await options.withService {
                try await $0.rotateSigningKey(prePublicationSeconds: prePublication)
            }
            try Output.json(rotation)
        }
    }
}
