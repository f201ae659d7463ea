import ArgumentParser
import Foundation
import KeywayPowerAuthClient

/// `keyway recovery show | confirm CODE`.
struct RecoveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery",
        abstract: "The activation's recovery code, and confirming a recovery postcard.",
        subcommands: [RecoveryShowCommand.self, RecoveryConfirmCommand.self])
}

/// `keyway recovery show`: the activation's recovery code and PUK.
struct RecoveryShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the activation's recovery code and PUK (kept sealed under the vault key; the server releases it).",
        discussion: "The code goes to standard output on the first line, the PUK on the second: keep them somewhere safe.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions
    @OptionGroup var factorOptions: FactorOptions

    func validate() throws {
        if factorOptions.factors == "possession" { throw ValidationError("The vault takes two factors: possession and a password or biometry.") }
    }

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard let authentication = try factorOptions.authentication(terminal: terminal, reason: "Show the recovery code") else {
                throw ExitCode.failure
            }
            let recovery = try await activation.recoveryData(authentication: authentication)
            terminal.output(recovery.recoveryCode)
            terminal.output(recovery.puk.revealed)
        }
    }
}

/// `keyway recovery confirm CODE`: confirms a postcard's recovery code.
struct RecoveryConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "Confirm a recovery postcard's code, so that it can recover an activation (signed with the password).")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Argument(help: "The postcard's recovery code (AAAAA-BBBBB-CCCCC-DDDDD, with or without R:).")
    var code: String

    @Option(help: "The activation's password (default: asked without echo).")
    var password: String?

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard let password = PasswordInput.read(password, question: "Password: ", terminal: terminal) else { throw ExitCode.failure }
            let already = try await activation.confirmRecoveryCode(code, authentication: .password(password))
            terminal.status(already ? "The recovery code was already confirmed." : "The recovery code is confirmed.")
        }
    }
}
