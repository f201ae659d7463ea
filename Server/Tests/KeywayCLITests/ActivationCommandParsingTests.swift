import ArgumentParser
import KeywayPowerAuthClient
import Testing

@testable import keyway

/// The activation and signing commands' arguments, parsed as `keyway` parses them.
@Suite("keyway activation and keyway sign: arguments")
struct ActivationCommandParsingTests {
    private func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
        let command = try KeywayCommand.parseAsRoot(arguments)
        return try #require(command as? Command)
    }

    private func refuses(_ arguments: [String]) -> Bool {
        (try? KeywayCommand.parseAsRoot(arguments)) == nil
    }

    @Test func createTakesExactlyOneWayToActivate() throws {
        let byCode = try parse(
            ["activation", "create", "--code", "vvvvv-vvvvv-vvvvv-vtfva", "--otp", "1234", "--name", "Laptop", "--powerauth-config", "pa.json"],
            as: ActivationCreateCommand.self)
        #expect(byCode.code == "vvvvv-vvvvv-vvvvv-vtfva")
        #expect(byCode.name == "Laptop")
        #expect(byCode.powerAuth.powerAuthConfig == "pa.json")
        guard case let .activationCode(code, signature, otp) = try #require(try byCode.credentials()) else {
            Issue.record("not a code")
            return
        }
        #expect(code.value == "VVVVV-VVVVV-VVVVV-VTFVA")
        #expect(signature == nil && otp == "1234")

        let bySignIn = try parse(["activation", "create", "--sign-in", "--password", "1234"], as: ActivationCreateCommand.self)
        #expect(bySignIn.signIn && bySignIn.password == "1234")
        #expect(try bySignIn.credentials() == nil)

        let byRecovery = try parse(
            ["activation", "create", "--recovery", "R:VVVVV-VVVVV-VVVVV-VTFVA", "--puk", "0123456789"], as: ActivationCreateCommand.self)
        guard case .recovery(_, let puk) = try #require(try byRecovery.credentials()) else {
            Issue.record("not recovery")
            return
        }
        #expect(puk.value == "0123456789")

        #expect(refuses(["activation", "create"]))
        #expect(refuses(["activation", "create", "--code", "X", "--sign-in"]))
        #expect(refuses(["activation", "create", "--recovery", "X"]))
        #expect(refuses(["activation", "create", "--sign-in", "--puk", "0123456789"]))
        #expect(refuses(["activation", "create", "--sign-in", "--otp", "1"]))
    }

    @Test func aMistypedCodeIsALocalError() throws {
        let command = try parse(["activation", "create", "--code", "VVVVV-VVVVW-VVVVV-VTFVA"], as: ActivationCreateCommand.self)
        #expect(throws: ActivationError.invalidActivationCode(.checksumMismatch)) { try command.credentials() }
        let scanned = try parse(["activation", "create", "--code", "VVVVV-VVVVV-VVVVV-VTFVA#AAAA"], as: ActivationCreateCommand.self)
        guard case .activationCode(_, let signature, _) = try #require(try scanned.credentials()) else {
            Issue.record("not a code")
            return
        }
        #expect(signature?.count == 3)
    }

    @Test func theOtherActivationCommands() throws {
        _ = try parse(["activation", "status"], as: ActivationStatusCommand.self)
        #expect(try parse(["activation", "commit", "--password", "p"], as: ActivationCommitCommand.self).password == "p")
        let change = try parse(
            ["activation", "change-password", "--old-password", "a", "--new-password", "b"], as: ActivationChangePasswordCommand.self)
        #expect(change.oldPassword == "a" && change.newPassword == "b")
        #expect(try parse(["activation", "commit", "--biometry"], as: ActivationCommitCommand.self).biometry)
        #expect(try parse(["activation", "create", "--sign-in", "--biometry"], as: ActivationCreateCommand.self).biometry)
        #expect(try parse(["activation", "biometry", "add", "--password", "p"], as: ActivationBiometryCommand.self).operation == .add)
        #expect(try parse(["activation", "biometry", "remove"], as: ActivationBiometryCommand.self).operation == .remove)
        #expect(refuses(["activation", "biometry", "remove", "--password", "p"]))
        #expect(refuses(["activation", "biometry", "enable"]))
        #expect(try parse(["activation", "remove", "--local"], as: ActivationRemoveCommand.self).local)
        #expect(try !parse(["activation", "remove"], as: ActivationRemoveCommand.self).local)
        #expect(refuses(["activation", "remove", "--local", "--password", "x"]))

        let code = try parse(
            ["activation", "code", "--expires-in", "900", "--otp", "12345", "--commit", "confirm", "--name", "Phone"],
            as: ActivationCodeCommand.self)
        #expect(code.request == ActivationCodeRequest(expiresIn: 900, otp: "12345", commit: .confirm, name: "Phone"))
        #expect(refuses(["activation", "code", "--expires-in", "10"]))
        #expect(refuses(["activation", "code", "--otp", "123"]))
        #expect(refuses(["activation", "code", "--commit", "later"]))
    }

    @Test func signOnlineAndOffline() throws {
        let online = try parse(
            ["sign", "post", "/payments/pay", "--body", "pay.json", "--factors", "possession_biometry"], as: SignCommand.self)
        #expect(online.method == "post" && online.uriId == "/payments/pay" && online.body == "pay.json")
        #expect(online.factors == "possession_biometry")
        let get = try parse(["sign", "GET", "/accounts", "--query", "page=2", "--query", "q=a=b"], as: SignCommand.self)
        #expect(try get.queryItems().map { "\($0.name)|\($0.value ?? "")" } == ["page|2", "q|a=b"])
        #expect(try parse(["sign", "POST", "/x"], as: SignCommand.self).factors == "possession_knowledge")
        let offline = try parse(["sign", "--offline", "data\nnonce\n0sig", "--factors", "possession"], as: SignCommand.self)
        #expect(offline.offline == "data\nnonce\n0sig")

        #expect(refuses(["sign"]))
        #expect(refuses(["sign", "POST"]))
        #expect(refuses(["sign", "POST", "payments"]))
        #expect(refuses(["sign", "PO ST", "/x"]))
        #expect(refuses(["sign", "POST", "/x", "--factors", "knowledge"]))
        #expect(refuses(["sign", "POST", "/x", "--body", "f", "--query", "a=b"]))
        #expect(refuses(["sign", "GET", "/x", "--query", "novalue"]))
        #expect(refuses(["sign", "POST", "/x", "--offline", "data"]))
    }
}
