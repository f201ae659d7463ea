import ArgumentParser

/// `keyway`: the Keyway command-line client.
@main
struct KeywayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyway",
        abstract: "The Keyway command-line client.",
        subcommands: [
            LoginCommand.self, GuestCommand.self, SignupCommand.self, AccountCommand.self, DevicesCommand.self, ApproveCommand.self,
            TokenCommand.self, WhoAmICommand.self, LogoutCommand.self, ActivationCommand.self, SignCommand.self,
            EncryptCommand.self, VaultCommand.self, RecoveryCommand.self,
        ])
}
