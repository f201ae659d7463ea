import ArgumentParser
import KeywayPowerAuthClient
import Testing

@testable import keyway

/// The arguments of `keyway encrypt`, `vault`, `token` and `recovery`, parsed as `keyway` parses them.
@Suite("keyway encrypt, vault, token and recovery: arguments")
struct PowerAuthPart2CommandParsingTests {
    private func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        let command = try KeywayCommand.parseAsRoot(arguments)
        return try #require(command as? Command)
    }

    private func refuses(_ arguments: [String]) -> Bool {
        (try? KeywayCommand.parseAsRoot(arguments)) == nil
    }

    @Test func encryptTakesAScopeAndAURLOrAPath() throws {
        let application = try parse(["encrypt", "--scope", "application", "--url", "/api/echo"], as: EncryptCommand.self)
        #expect(try application.target().absoluteString == "http://127.0.0.1:8080/api/echo")
        let signed = try parse(
            ["encrypt", "--scope", "activation", "--url", "https://api.example.com/x", "--uri-id", "/x", "--factors", "possession"],
            as: EncryptCommand.self)
        #expect(signed.uriId == "/x")
        #expect(try signed.target().absoluteString == "https://api.example.com/x")
        #expect(refuses(["encrypt", "--scope", "device", "--url", "/x"]))
        #expect(refuses(["encrypt", "--scope", "application", "--url", "/x", "--uri-id", "/x"]))
        #expect(refuses(["encrypt", "--scope", "activation", "--url", "/x", "--uri-id", "x"]))
        #expect(refuses(["encrypt", "--scope", "application", "--url", "ftp://example.com/x"]))
        #expect(refuses(["encrypt", "--scope", "application"]))
    }

    @Test func theVaultAndRecoveryTakeTwoFactors() throws {
        let key = try parse(["vault", "key", "7", "--password", "1234"], as: VaultKeyCommand.self)
        #expect(key.index == 7)
        #expect(key.factorOptions.factors == "possession_knowledge")
        #expect(refuses(["vault", "key", "1", "--factors", "possession"]))
        #expect(refuses(["vault", "key", "-1"]))
        #expect(refuses(["vault", "key", "1", "--factors", "knowledge_only"]))
        #expect(refuses(["recovery", "show", "--factors", "possession"]))
        let confirm = try parse(["recovery", "confirm", "R:VVVVV-VVVVV-VVVVV-VTFVA", "--password", "1"], as: RecoveryConfirmCommand.self)
        #expect(confirm.code == "R:VVVVV-VVVVV-VVVVV-VTFVA")
        #expect(refuses(["recovery", "confirm"]))
    }

    @Test func tokenSubcommandsTakeANameAndTokenAloneIsTheAccessToken() throws {
        #expect(try parse(["token", "create", "balance", "--factors", "possession"], as: TokenCreateCommand.self).name == "balance")
        #expect(try parse(["token", "header", "balance"], as: TokenHeaderCommand.self).name == "balance")
        #expect(try parse(["token", "remove", "balance"], as: TokenRemoveCommand.self).name == "balance")
        _ = try parse(["token", "list"], as: TokenListCommand.self)
        _ = try parse(["token"], as: TokenCommand.self)
        #expect(refuses(["token", "header"]))
    }
}
