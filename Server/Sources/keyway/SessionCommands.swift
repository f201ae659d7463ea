import ArgumentParser
import Foundation
import Keyway
import KeywayProtocol

/// `keyway token`: prints a valid access token of the stored session, refreshing it if needed.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a valid access token of the signed-in session (refreshed when needed); manage PowerAuth tokens.",
        discussion: """
            Without a subcommand the access token alone goes to standard output, so scripts can use it: \
            curl -H "Authorization: Bearer $(keyway token)" …  The subcommands manage the PowerAuth tokens of \
            this machine's activation (X-PowerAuth-Token).
            """,
        subcommands: [TokenCreateCommand.self, TokenHeaderCommand.self, TokenRemoveCommand.self, TokenListCommand.self])

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let keyway = try options.makeKeyway()
        let session = keyway.session
        let terminal = Terminal()
        do {
            guard let token = try await session.accessToken() else { throw SessionError.noAccessTokenPresent }
            terminal.output(token.revealed)
        } catch let error as ExitCode {
            throw error
        } catch {
            terminal.status("Error: \(DeviceCommandSupport.sentence(for: error, server: options.server))")
            throw ExitCode.failure
        }
    }
}

/// `keyway whoami`: the signed-in user, from the server's UserInfo endpoint.
struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Show the signed-in user, as the server sees it.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let keyway = try options.makeKeyway()
        let session = keyway.session
        let terminal = Terminal()
        do {
            let info = try await session.userInfo()
            if info.isAnonymous == true {
                terminal.output("guest (\(info.subject))")
            } else {
                terminal.output(info.email.map { "\($0) (\(info.subject))" } ?? info.subject)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            terminal.status("Error: \(DeviceCommandSupport.sentence(for: error, server: options.server))")
            throw ExitCode.failure
        }
    }
}

/// `keyway logout`: revokes the session at the server and forgets it.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Sign out: revoke the session at the server and delete it here.")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Sign out on every device and app (all of the user's sessions).")
    var everywhere = false

    func run() async throws {
        let keyway = try options.makeKeyway()
        let terminal = Terminal()
        do {
            try await keyway.session.signOut(scope: everywhere ? .allDevices : .local)
            terminal.status(everywhere ? "Signed out everywhere." : "Signed out.")
        } catch {
            terminal.status("Error: \(error)")
            throw ExitCode.failure
        }
    }
}
