import Foundation

extension AdminService {
    /// The project's hosted-page theme: the one stored, else the default look under the
    /// project's name. For the hosted pages.
    ///
    /// - Throws: ``AdminError/projectNotFound(projectId:)``.
    func theme(projectId: String) async throws -> HostedTheme {
        try await database.read { repositories in try await Self.theme(projectId: projectId, in: repositories) }
    }

    /// The project's hosted-page theme as the admin API shows it.
    ///
    /// - Throws: ``AdminError/projectNotFound(projectId:)``.
    package func projectTheme(projectId: String) async throws -> AdminProjectTheme {
        Self.resource(try await theme(projectId: projectId), projectId: projectId)
    }

    /// Changes the members of the project's theme given in `update` (`null` removes an optional
    /// one) after validating them, in one transaction; returns the theme as saved.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` for an invalid member (nothing is
    ///   saved then), ``AdminError/projectNotFound(projectId:)``.
    package func updateProjectTheme(projectId: String, _ update: UpdateThemeRequest) async throws -> AdminProjectTheme {
        var name: String?
        if let submitted = update.name {
            let trimmed = submitted.trimmingCharacters(in: .whitespacesAndNewlines)
            if let problem = HostedTheme.problem(withName: trimmed) {
                throw AdminError.invalidInput(field: "name", message: problem)
            }
            name = trimmed
        }
        for (field, value) in [("logoUrl", update.logoUrl), ("stylesheetUrl", update.stylesheetUrl)] {
            if case .some(.some(let url)) = value, let problem = HostedTheme.problem(withURL: url) {
                throw AdminError.invalidInput(field: field, message: problem)
            }
        }
        var color: String??
        if let submitted = update.primaryColor {
            if let submitted {
                guard let normalized = HostedTheme.normalizedColor(submitted) else {
                    throw AdminError.invalidInput(
                        field: "primaryColor", message: "The primary colour is written #rrggbb (such as #1a73e8), not \(submitted).")
                }
                color = .some(normalized)
            } else {
                color = .some(nil)
            }
        }
        let (newName, newColor) = (name, color)
        let theme = try await database.write { repositories in
            var theme = try await Self.theme(projectId: projectId, in: repositories)
            if let newName { theme.name = newName }
            if let logo = update.logoUrl { theme.logoURL = logo }
            if let newColor { theme.primaryColor = newColor }
            if let stylesheet = update.stylesheetUrl { theme.stylesheetURL = stylesheet }
            try await repositories.applications.setTheme(try theme.encoded(), projectId: projectId)
            return theme
        }
        return Self.resource(theme, projectId: projectId)
    }

    /// The project's theme inside a transaction: the one stored, else the default.
    private static func theme(projectId: String, in repositories: Repositories) async throws -> HostedTheme {
        guard let projectName = try await repositories.applications.projectName(id: projectId) else {
            throw AdminError.projectNotFound(projectId: projectId)
        }
        return HostedTheme.decode(json: try await repositories.applications.theme(projectId: projectId))
            ?? HostedTheme(name: projectName)
    }

    /// The theme as the admin API shows it.
    private static func resource(_ theme: HostedTheme, projectId: String) -> AdminProjectTheme {
        AdminProjectTheme(
            projectId: projectId, name: theme.name, logoUrl: theme.logoURL, primaryColor: theme.primaryColor,
            stylesheetUrl: theme.stylesheetURL)
    }
}
