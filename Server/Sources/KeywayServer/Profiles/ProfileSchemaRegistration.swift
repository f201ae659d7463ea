import Foundation
import KeywayProtocol

extension KeywayServerApp {
    /// Sets the profile schema of the dev project (the project applications are registered in).
    /// A schema with invalid fields is refused with a ``ConfigurationError`` naming them; existing
    /// profiles keep their values, and fields no longer in the schema are dropped at the next update.
    public func setProfileSchema(_ fields: [ProfileFieldDefinition]) async throws {
        let problems = ProfileValidation.problems(in: fields)
        guard problems.isEmpty else {
            throw ConfigurationError(
                "The profile schema is invalid: " + problems.map { "\($0.name): \($0.reason)" }.joined(separator: " "))
        }
        let now = configuration.clock.now().epochMilliseconds
        try await database.write { repositories in
            let projectId = try await repositories.applications.ensureDevProject(createdAt: now)
            try await repositories.profiles.setSchema(fields, projectId: projectId, at: now)
        }
    }
}
