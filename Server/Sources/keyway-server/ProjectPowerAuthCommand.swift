import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project powerauth …`: an application's PowerAuth credentials and settings, and
/// its users' device activations.
struct ProjectPowerAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "powerauth",
        abstract: "Shows an application's PowerAuth credentials, changes its settings, makes activation codes and recovery postcards and administers activations.",
        subcommands: [
            Show.self, Settings.self, ActivationCode.self, Activations.self, Change.self, Postcard.self, RecoveryCodes.self,
            RevokeRecoveryCode.self,
        ])

    /// `powerauth show`: the credentials an app is configured with, as JSON.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the application's PowerAuth credentials as JSON (created on first use).")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        func run() async throws {
            try Output.json(try await options.withService { try await $0.powerAuthSettings(configId: configId) })
        }
    }

    /// `powerauth settings`: the failure limit and recovery codes.
    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Changes the failed signatures that block an activation, and whether activations hand out recovery codes.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Option(help: "Failed signatures in a row that block an activation (1 to 20).")
        var maxFailedAttempts: Int?

        @Option(help: "Whether activations hand out a recovery code and PUK (true or false).")
        var recovery: Bool?

        func run() async throws {
            try Output.json(
                try await options.withService {
                    try await $0.updatePowerAuthSettings(
                        configId: configId, maxFailedAttempts: maxFailedAttempts, recoveryEnabled: recovery)
                })
        }
    }

    /// `powerauth activation-code`: a code for one of the user's devices.
    struct ActivationCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activation-code", abstract: "Makes an activation code for a user's device and prints it as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Argument(help: "The user's ID.")
        var userId: String

        @Option(help: "Lifetime in seconds (60 to 604800; default 600).")
        var expiresIn: Int?

        @Option(help: "An OTP the activation must also present (4 to 64 characters).")
        var otp: String?

        @Option(help: "automatic (active at the key exchange) or confirm (an administrator commits it).")
        var commit: String?

        @Option(help: "The activation's name.")
        var name: String?

        func run() async throws {
            try Output.json(
                try await options.withService {
                    try await $0.createActivationCode(
                        userId: userId, configId: configId, expiresIn: expiresIn, otp: otp, commit: commit, name: name)
                })
        }
    }

    /// `powerauth activations`: the user's activations.
    struct Activations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists a user's activations as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The user's ID.")
        var userId: String

        func run() async throws {
            try Output.json(try await options.withService { try await $0.activations(userId: userId) })
        }
    }

    /// `powerauth change`: commit, block, unblock or remove an activation.
    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Commits, blocks, unblocks or removes an activation, and prints it as JSON.")
        @OptionGroup var options: DatabaseOptions

        enum Operation: String, ExpressibleByArgument, CaseIterable {
            case commit, block, unblock, remove
        }

        @Argument(help: "commit, block, unblock or remove.")
        var operation: Operation

        @Argument(help: "The activation's ID.")
        var activationId: String

        @Option(help: "The activation OTP (commit).")
        var otp: String?

        @Option(help: "Why it is blocked (block).")
        var reason: String?

        func run() async throws {
            let change: AdminService.ActivationChange =
                switch operation {
                case .commit: .commit(otp: otp)
                case .block: .block(reason: reason)
                case .unblock: .unblock
                case .remove: .remove
                }
            try Output.json(try await options.withService { try await $0.changeActivation(activationId, change) })
        }
    }

    /// `powerauth postcard`: a recovery postcard for a user.
    struct Postcard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Makes a recovery postcard for a user and prints its code and PUKs as JSON (shown this once).")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Argument(help: "The user's ID.")
        var userId: String

        @Option(help: "How many PUKs the postcard has (1 to 100; default 5).")
        var pukCount: Int?

        func run() async throws {
            try Output.json(
                try await options.withService {
                    try await $0.createRecoveryPostcard(userId: userId, configId: configId, pukCount: pukCount)
                })
        }
    }

    /// `powerauth recovery-codes`: the user's recovery codes.
    struct RecoveryCodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes", abstract: "Lists a user's recovery codes (postcards and activations' codes) as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The user's ID.")
        var userId: String

        func run() async throws {
            try Output.json(try await options.withService { try await $0.recoveryCodes(userId: userId) })
        }
    }

    /// `powerauth revoke-recovery-code`: a code that can no longer recover.
    struct RevokeRecoveryCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-recovery-code", abstract: "Revokes a recovery code and prints it as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The recovery code's ID.")
        var recoveryCodeId: String

        func run() async throws {
            try Output.json(try await options.withService { try await $0.revokeRecoveryCode(recoveryCodeId) })
        }
    }
}
