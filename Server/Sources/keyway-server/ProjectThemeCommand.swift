import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project theme`: shows or changes a project's hosted-page theme.
struct ProjectThemeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Prints a project's hosted-page theme as JSON; with options, changes it first (those not given stay as they are).")
    @OptionGroup var options: DatabaseOptions

    @Option(help: ArgumentHelp("The project's ID (prj_…; `project show` prints an application's).", valueName: "id"))
    var project: String

    @Option(help: "The name shown at the top of every page (1 to 100 characters).")
    var name: String?

    @Option(help: ArgumentHelp("An https URL of the logo.", valueName: "url"))
    var logoUrl: String?

    @Flag(help: "Remove the logo.")
    var noLogoUrl = false

    @Option(help: ArgumentHelp("The primary colour, #rrggbb.", valueName: "color"))
    var primaryColor: String?

    @Flag(help: "Go back to the built-in primary colour.")
    var noPrimaryColor = false

    @Option(help: ArgumentHelp("An https URL of a stylesheet loaded after the built-in one.", valueName: "url"))
    var stylesheetUrl: String?

    @Flag(help: "Remove the stylesheet.")
    var noStylesheetUrl = false

    func validate() throws {
        for (value, clear, names) in [
            (logoUrl, noLogoUrl, "--logo-url or --no-logo-url"),
            (primaryColor, noPrimaryColor, "--primary-color or --no-primary-color"),
            (stylesheetUrl, noStylesheetUrl, "--stylesheet-url or --no-stylesheet-url"),
        ] where clear && value != nil {
            throw ValidationError("Give \(names), not both.")
        }
    }

    /// The change the options ask for (empty: only show the theme).
    var update: UpdateThemeRequest {
        func member(_ value: String?, clear: Bool) -> String?? { clear ? .some(nil) : value.map { .some($0) } }
        return UpdateThemeRequest(
            name: name, logoUrl: member(logoUrl, clear: noLogoUrl),
            primaryColor: member(primaryColor, clear: noPrimaryColor),
            stylesheetUrl: member(stylesheetUrl, clear: noStylesheetUrl))
    }

    func run() async throws {
        let update = self.update
        let theme = try await options.withService { service in
            update.isEmpty
                ? try await service.projectTheme(projectId: project)
                : try await service.updateProjectTheme(projectId: project, update)
        }
        try Output.json(theme)
    }
}
