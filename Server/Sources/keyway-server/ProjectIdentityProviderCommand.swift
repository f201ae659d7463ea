import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project identity-provider …`: a project's upstream OpenID Connect providers.
struct ProjectIdentityProviderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity-provider",
        abstract: "Administers a project's upstream OpenID Connect providers (sign in with Google, Apple, …).",
        subcommands: [Add.self, List.self, Show.self, Change.self, Remove.self])

    /// The options a provider's settings share between `add` and `change`.
    struct Settings: ParsableArguments {
        @Option(help: "generic, apple or google.")
        var preset: String?
        @Option(help: ArgumentHelp("The issuer, as its discovery document names it.", valueName: "url"))
        var issuer: String?
        @Option(help: "The client ID registered at the provider.")
        var clientId: String?
        @Option(help: ArgumentHelp("A file holding the client secret (sealed at rest, never printed).", valueName: "path"))
        var clientSecretFile: String?
        @Option(help: "Apple: the team ID of the signing key.")
        var appleTeamId: String?
        @Option(help: "Apple: the key ID of the signing key.")
        var appleKeyId: String?
        @Option(help: ArgumentHelp("Apple: the signing key's .p8 file (PEM).", valueName: "path"))
        var appleKeyFile: String?
        @Option(help: ArgumentHelp("The scopes asked for, space separated (openid email profile by default).", valueName: "scopes"))
        var scopes: String?
        @Option(help: "The button's label (\"Continue with Google\").")
        var label: String?
        @Option(help: ArgumentHelp("An https URL of the button's icon; an empty value removes it.", valueName: "url"))
        var iconUrl: String?

        func change() throws -> UpdateIdentityProviderRequest {
            let secret = try clientSecretFile.map {
                try String(contentsOfFile: $0, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var appleKey: AdminAppleKey?
            if appleTeamId != nil || appleKeyId != nil || appleKeyFile != nil {
                guard let appleTeamId, let appleKeyId, let appleKeyFile else {
                    throw ValidationError("Give --apple-team-id, --apple-key-id and --apple-key-file together.")
                }
                appleKey = AdminAppleKey(
                    teamId: appleTeamId, keyId: appleKeyId, privateKeyPEM: try String(contentsOfFile: appleKeyFile, encoding: .utf8))
            }
            return UpdateIdentityProviderRequest(
                preset: preset, issuer: issuer, clientId: clientId, clientSecret: secret, appleKey: appleKey,
                scopes: scopes.map { $0.split(separator: " ").map(String.init) }, label: label, iconURL: iconUrl)
        }
    }

    /// `identity-provider add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Adds a provider to a project; prints it as JSON.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: ArgumentHelp("The project's ID (prj_…).", valueName: "id")) var project: String
        @Option(help: ArgumentHelp("The provider's ID in the project, [a-z0-9-]{2,32}.", valueName: "id")) var id: String
        @OptionGroup var settings: Settings

        func run() async throws {
            let change = try settings.change()
            guard let issuer = change.issuer, let clientId = change.clientId, let label = change.label else {
                throw ValidationError("Give --issuer, --client-id and --label.")
            }
            let request = CreateIdentityProviderRequest(
                id: id, preset: change.preset, issuer: issuer, clientId: clientId, clientSecret: change.clientSecret,
                appleKey: change.appleKey, scopes: change.scopes, label: label, iconURL: change.iconURL)
            let project = self.project
            try Output.json(try await options.withService { try await $0.createIdentityProvider(projectId: project, request) })
        }
    }

    /// `identity-provider list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists a project's providers as JSON.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: ArgumentHelp("The project's ID (prj_…).", valueName: "id")) var project: String

        func run() async throws {
            let project = self.project
            try Output.json(try await options.withService { try await $0.identityProviders(projectId: project) })
        }
    }

    /// `identity-provider show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Prints one provider as JSON.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: ArgumentHelp("The project's ID (prj_…).", valueName: "id")) var project: String
        @Option(help: ArgumentHelp("The provider's ID.", valueName: "id")) var id: String

        func run() async throws {
            let (project, id) = (self.project, self.id)
            try Output.json(try await options.withService { try await $0.identityProvider(projectId: project, id: id) })
        }
    }

    /// `identity-provider change`.
    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Changes a provider (the options not given stay as they are); prints it as JSON.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: ArgumentHelp("The project's ID (prj_…).", valueName: "id")) var project: String
        @Option(help: ArgumentHelp("The provider's ID.", valueName: "id")) var id: String
        @OptionGroup var settings: Settings

        func run() async throws {
            let (project, id, change) = (self.project, self.id, try settings.change())
            try Output.json(
                try await options.withService { try await $0.updateIdentityProvider(projectId: project, id: id, change) })
        }
    }

    /// `identity-provider remove`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Removes a provider; identities linked through it stay with their users.")
        @OptionGroup var options: DatabaseOptions
        @Option(help: ArgumentHelp("The project's ID (prj_…).", valueName: "id")) var project: String
        @Option(help: ArgumentHelp("The provider's ID.", valueName: "id")) var id: String

        func run() async throws {
            let (project, id) = (self.project, self.id)
            try await options.withService { try await $0.deleteIdentityProvider(projectId: project, id: id) }
            print("Removed \(id).")
        }
    }
}
