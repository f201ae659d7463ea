import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer

/// `keyway-server project profile-schema`: shows or replaces a project's profile schema.
struct ProjectProfileSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile-schema",
        abstract: "Prints a project's profile schema as JSON; with --file, replaces it first (as PUT /admin/projects/{projectId}/profile-schema).")
    @OptionGroup var options: DatabaseOptions

    @Option(help: ArgumentHelp("The project's ID (prj_…; `project show` prints an application's).", valueName: "id"))
    var project: String

    @Option(
        help: ArgumentHelp(
            "A JSON file of the whole schema: {\"fields\": [{\"name\", \"type\", \"required\", \"encrypted\", \"maxLength\"}, …]} (- reads standard input).",
            valueName: "path"))
    var file: String?

    func run() async throws {
        var fields: [ProfileFieldDefinition]?
        if let file {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            guard let data else { throw ValidationError("--file \(file) cannot be read.") }
            do {
                fields = try JSONDecoder().decode(ProfileSchemaRequest.self, from: data).fields
            } catch {
                throw ValidationError(
                    "--file \(file) is not a profile schema: a JSON object {\"fields\": […]} whose fields each have a name and a type (string, number or boolean).")
            }
        }
        let schema = try await options.withService { service in
            if let fields { return try await service.setProfileSchema(projectId: project, fields: fields) }
            return try await service.profileSchema(projectId: project)
        }
        try Output.json(schema)
    }
}
