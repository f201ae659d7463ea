import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project registration-token …`: initial access tokens for dynamic client
/// registration (RFC 7591 §3).
struct ProjectRegistrationTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration-token",
        abstract: "Issues, lists and revokes initial access tokens for dynamic client registration at POST /oauth2/register.",
        subcommands: [Issue.self, List.self, Revoke.self])

    /// `registration-token issue`: a new token, shown once.
    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issues a token (shown once) whose clients are created from the application, as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The config ID of the template application: new clients take its project and policies.")
        var configId: String

        @Option(help: "Lifetime in seconds (at most a year; default: the token does not expire).")
        var expiresIn: Int?

        func run() async throws {
            try Output.json(
                try await options.withService {
                    try await $0.issueRegistrationToken(configId: configId, expiresInSeconds: expiresIn)
                })
        }
    }

    /// `registration-token list`: the application's tokens, never the tokens themselves.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lists the application's tokens as JSON: ID, expiry, clients registered (never the tokens).")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The config ID of the template application.")
        var configId: String

        func run() async throws {
            let tokens = try await options.withService { try await $0.registrationTokens(configId: configId) }
            try Output.json(AdminRegistrationTokenList(registrationTokens: tokens))
        }
    }

    /// `registration-token revoke`: the token registers no more clients.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revokes a token: it registers no more clients (those it registered stay).")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The config ID of the template application.")
        var configId: String

        @Argument(help: "The token's ID (rit_…).")
        var tokenId: String

        func run() async throws {
            try await options.withService { try await $0.revokeRegistrationToken(configId: configId, tokenId: tokenId) }
            Output.line("Registration token \(tokenId) revoked.")
        }
    }
}
