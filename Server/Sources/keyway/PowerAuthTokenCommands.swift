import ArgumentParser
import Foundation
import KeywayPowerAuthClient

/// `keyway token create NAME`: a PowerAuth token of this machine's activation.
struct TokenCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Get a PowerAuth token named NAME for this machine's activation (the stored one when it exists).",
        discussion: "Prints the token's ID. The token carries the factors of the signature that created it (--factors).")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions
    @OptionGroup var factorOptions: FactorOptions

    @Argument(help: "The token's name on this machine.")
    var name: String

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard let authentication = try factorOptions.authentication(terminal: terminal, reason: "Create a token") else {
                throw ExitCode.failure
            }
            let token = try await activation.requestToken(named: name, authentication: authentication)
            terminal.output(token.tokenID)
        }
    }
}

/// `keyway token header NAME`: the `X-PowerAuth-Token` value.
struct TokenHeaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "header",
        abstract: "Print the X-PowerAuth-Token header value of the token NAME (fresh nonce and time; no network).",
        discussion: "For example: curl -H \"X-PowerAuth-Token: $(keyway token header balance)\" …")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Argument(help: "The token's name.")
    var name: String

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            terminal.output(try await activation.tokenHeader(named: name).value)
        }
    }
}

/// `keyway token remove NAME`.
struct TokenRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove the token NAME on the server, then on this machine.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Argument(help: "The token's name.")
    var name: String

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            try await activation.removeToken(named: name)
            terminal.status("The token \(name) is removed.")
        }
    }
}

/// `keyway token list`.
struct TokenListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List this machine's PowerAuth tokens: NAME, TOKEN-ID, FACTORS, one a line.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            for token in try await activation.tokens() {
                terminal.output("\(token.name)\t\(token.tokenID)\t\(token.factors.typeName)")
            }
        }
    }
}
