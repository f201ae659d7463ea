import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer

/// `keyway-server project …`: applications, their settings and policies, invite codes, start
/// tokens, registration tokens, and their projects' themes.
struct ProjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "Administers applications: create, list, show and update them, set their policies, issue invite codes, start tokens and registration tokens, theme their projects' hosted pages.",
        subcommands: [
            List.self, Create.self, ProjectShowCommand.self, ProjectUpdateCommand.self, ProjectPolicyCommand.self,
            Invite.self, StartToken.self, ProjectRegistrationTokenCommand.self, ProjectThemeCommand.self,
            ProjectPowerAuthCommand.self, ProjectIdentityProviderCommand.self, ProjectProfileSchemaCommand.self,
        ])

    /// `project list`: every application as JSON.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists the applications as JSON.")
        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let applications = try await options.withService { try await $0.listApplications() }
            try Output.json(AdminApplicationList(applications: applications))
        }
    }

    /// `project create`: a new project with one application.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Creates a project with one application and prints its config ID (and client secret, once).")
        @OptionGroup var options: DatabaseOptions

        @Option(help: "The application's name.")
        var name: String

        @Flag(help: "A confidential application: codes are redeemed with a client secret, from the app's backend.")
        var confidential = false

        @Option(help: "Add the application to this existing project (its users, and single sign-on without consent) instead of a new one.")
        var project: String?

        func run() async throws {
            let created = try await options.withService {
                try await $0.createApplication(
                    name: name, clientType: confidential ? "confidential" : "public", projectId: project)
            }
            try Output.json(created)
        }
    }

    /// `project invite`: a sign-up invite code.
    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issues a single-use sign-up invite code (shown once) as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Option(help: "Lifetime in seconds (default 7 days).")
        var expiresIn: Int?

        func run() async throws {
            let issued = try await options.withService {
                try await $0.createInviteCode(configId: configId, expiresInSeconds: expiresIn)
            }
            try Output.json(issued)
        }
    }

    /// `project start-token`: a start token for one flow of one identifier.
    struct StartToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start-token",
            abstract: "Issues a single-use start token (shown once) for a flow of one identifier, as JSON.")
        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The application's config ID.")
        var configId: String

        @Option(help: "signin, signup or accountManage.")
        var flowType: String

        @Option(help: "The email address or E.164 phone number the flow is for.")
        var identifier: String

        @Option(help: "Lifetime in seconds (default 600, at most 3600).")
        var expiresIn: Int?

        func run() async throws {
            let issued = try await options.withService {
                try await $0.createStartToken(
                    configId: configId, flowType: FlowType(rawValue: flowType), identifier: identifier,
                    expiresInSeconds: expiresIn)
            }
            try Output.json(issued)
        }
    }
}
