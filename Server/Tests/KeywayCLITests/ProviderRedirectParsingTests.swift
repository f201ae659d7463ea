import ArgumentParser
import Foundation
import Testing

@testable import keyway

/// Signing in with another provider from the terminal: the flow commands' arguments, and the
/// redirect URI the flow carries.
@Suite("keyway login and signup: another provider's redirect")
struct ProviderRedirectParsingTests {
    private func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        let command = try KeywayCommand.parseAsRoot(arguments)
        return try #require(command as? Command)
    }

    @Test func withoutLoopbackTheFlowCarriesNoRedirectURI() throws {
        let login = try parse(["login", "ada@example.com"], as: LoginCommand.self)
        #expect(!login.flowOptions.loopback && !login.flowOptions.open)
        #expect(login.flowOptions.redirectTimeout == 300)
        let redirect = try ProviderRedirect(options: login.flowOptions)
        #expect(redirect.listener == nil)
        #expect(redirect.startOptions.redirectURI == nil)
    }

    @Test func loopbackBindsAListenerWhoseURITheFlowCarries() throws {
        let login = try parse(
            ["login", "ada@example.com", "--loopback", "--open", "--redirect-timeout", "60"], as: LoginCommand.self)
        #expect(login.flowOptions.loopback && login.flowOptions.open)
        let redirect = try ProviderRedirect(options: login.flowOptions)
        defer { redirect.close() }
        let listener = try #require(redirect.listener)
        #expect(redirect.openBrowser)
        #expect(redirect.timeout == .seconds(60))
        #expect(redirect.startOptions.redirectURI == listener.redirectURI)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")

        let signup = try parse(["signup", "ada@example.com", "--loopback"], as: SignupCommand.self)
        #expect(signup.flowOptions.loopback && !signup.flowOptions.open)
    }

    @Test func theTimeoutIsBounded() {
        for seconds in ["0", "3601", "x"] {
            #expect((try? KeywayCommand.parseAsRoot(["login", "ada@example.com", "--redirect-timeout", seconds])) == nil)
        }
        #expect((try? KeywayCommand.parseAsRoot(["login", "ada@example.com", "--redirect-timeout", "3600"])) != nil)
    }
}
