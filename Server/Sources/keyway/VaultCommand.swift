import ArgumentParser
import Foundation
import KeywayPowerAuthClient

/// `keyway vault key N`.
struct VaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Keys of this machine's activation that the server releases (the PowerAuth vault).",
        subcommands: [VaultKeyCommand.self])
}

/// `keyway vault key N`: the encryption key of index N.
struct VaultKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the activation's encryption key of index N (Base64, 16 bytes).",
        discussion: """
            The server releases the vault key for a signature with two factors; the key of index N is \
            derived from it (the same N gives the same key as long as the activation lives). The key goes \
            to standard output: treat it as a secret.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions
    @OptionGroup var factorOptions: FactorOptions

    @Argument(help: "The key's index (0 to 18446744073709551615).")
    var index: UInt64

    func validate() throws {
        if factorOptions.factors == "possession" { throw ValidationError("The vault takes two factors: possession and a password or biometry.") }
    }

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard let authentication = try factorOptions.authentication(terminal: terminal, reason: "Unlock the vault") else {
                throw ExitCode.failure
            }
            let key = try await activation.fetchEncryptionKey(index: index, authentication: authentication)
            terminal.output(key.withUnsafeBytes { Data($0) }.base64EncodedString())
        }
    }
}
