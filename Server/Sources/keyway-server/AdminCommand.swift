import ArgumentParser
import KeywayProtocol
import KeywayServer

/// `keyway-server admin …`: the admin credential.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Manages the admin API's credential.", subcommands: [RotateToken.self])

    /// `admin rotate-token`: replaces the admin token and prints the new one once.
    struct RotateToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-token",
            abstract: "Replaces the admin token with a new random one and prints it (shown once); the old one stops working at once.")
        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let token = try await options.withService { try await $0.rotateAdminToken() }
            Output.line("Admin token: \(token.revealed) (shown once; rotate with `keyway-server admin rotate-token`)")
        }
    }
}
