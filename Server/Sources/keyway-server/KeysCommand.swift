import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer

/// `keyway-server keys …`: the token signing keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Lists and rotates the keys tokens are signed with.",
        subcommands: [List.self, Rotate.self, Rewrap.self])

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
            abstract: "Publishes a new signing key of one algorithm now; it signs once the pre-publication time has passed, and the current key stays published until its tokens have expired. A rotation already under way is printed unchanged.")
        @OptionGroup var options: DatabaseOptions

        @Option(help: "Seconds the new key is published before it signs (0-604800).")
        var prePublication = 3600

        @Option(help: "The algorithm whose key is rotated: ES256 (access and ID tokens) or RS256 (ID tokens).")
        var algorithm = "ES256"

        func run() async throws {
            let rotation = try await options.withService {
                try await $0.rotateSigningKey(algorithm: algorithm, prePublicationSeconds: prePublication)
            }
            try Output.json(rotation)
        }
    }

    /// `keys rewrap`: seals every secret at rest anew under a new master key.
    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Seals every secret at rest anew under a new master key (the current one comes from --master-key-file or $KEYWAY_MASTER_KEY); stop the servers first and start them again with the new key.")
        @OptionGroup var options: DatabaseOptions

        @Option(help: ArgumentHelp("A file whose first line is the new master key.", valueName: "path"))
        var newMasterKeyFile: String

        func run() async throws {
            let newKey: MasterKey
            do {
                newKey = try MasterKey.read(path: newMasterKeyFile)
            } catch {
                throw ValidationError(error.description)
            }
            let count = try await options.withService { try await $0.rewrapSecrets(to: newKey) }
            Output.line("\(count) secrets sealed under the master key \(newKey.id).")
        }
    }
}
