import ArgumentParser
import Foundation
import KeywayPowerAuthClient

/// The factors of a command that signs with the activation: `--factors` and `--password`.
struct FactorOptions: ParsableArguments {
    @Option(help: "possession, possession_knowledge (default), possession_biometry or possession_knowledge_biometry.")
    var factors = "possession_knowledge"

    @Option(help: "The activation's password, for the knowledge factor (default: asked without echo).")
    var password: String?

    func validate() throws {
        guard SignCommand.factorNames.contains(factors) else {
            throw ValidationError("--factors is one of \(SignCommand.factorNames.joined(separator: ", ")).")
        }
    }

    /// The factors, asking for the password when knowledge is among them; `nil` at end of input.
    func authentication(terminal: Terminal, reason: String) throws -> FactorAuthentication? {
        var password: String?
        if factors.contains("knowledge") {
            guard let typed = PasswordInput.read(self.password, question: "Password: ", terminal: terminal) else { return nil }
            password = typed
        }
        return try FactorAuthentication(typeName: factors, password: password, biometryReason: reason)
    }
}
