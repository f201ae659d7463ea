import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project show`: one application with its settings, as JSON.
struct ProjectShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Prints an application and its settings (ID token algorithm, CORS origins) as JSON.")
    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The application's config ID.")
    var configId: String

    func run() async throws {
        try Output.json(try await options.withService { try await $0.application(configId: configId) })
    }
}

/// `keyway-server project update`: changes an application's settings.
struct ProjectUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Changes an application's settings; those not given stay as they are. Prints the application as JSON.")
    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The application's config ID.")
    var configId: String

    @Option(help: ArgumentHelp("The algorithm ID tokens are signed with: ES256 or RS256.", valueName: "alg"))
    var idTokenAlg: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "An origin (https://host[:port]) whose scripts may call the token, UserInfo and revocation endpoints (repeatable; replaces the registered ones).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Flag(help: "Remove every CORS origin.")
    var noCorsOrigins = false

    func validate() throws {
        if noCorsOrigins, !corsOrigins.isEmpty {
            throw ValidationError("Give --cors-origin or --no-cors-origins, not both.")
        }
        if idTokenAlg == nil, corsOrigins.isEmpty, !noCorsOrigins {
            throw ValidationError("Nothing to change: give --id-token-alg, --cors-origin or --no-cors-origins.")
        }
    }

    func run() async throws {
        let update = UpdateApplicationRequest(
            idTokenSignedResponseAlg: idTokenAlg, corsOrigins: noCorsOrigins ? [] : corsOrigins.isEmpty ? nil : corsOrigins)
        try Output.json(try await options.withService { try await $0.updateApplication(configId: configId, update) })
    }
}
