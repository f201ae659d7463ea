import Foundation
import KeywayProtocol

/// `GET|PUT /admin/projects/{projectId}/profile-schema` as a resource: the project's fields.
package struct AdminProfileSchema: Codable, Sendable, Equatable {
    package var projectId: String
    package var fields: [ProfileFieldDefinition]

    package init(projectId: String, fields: [ProfileFieldDefinition]) {
        self.projectId = projectId
        self.fields = fields
    }
}

/// The body of `PUT /admin/projects/{projectId}/profile-schema`: the whole schema.
package struct ProfileSchemaRequest: Codable, Sendable, Equatable {
    package var fields: [ProfileFieldDefinition]

    package init(fields: [ProfileFieldDefinition]) { self.fields = fields }
}

extension AdminService {
    /// The profile schema of the project (empty when none was set).
    ///
    /// - Throws: ``AdminError/projectNotFound(projectId:)``.
    package func profileSchema(projectId: String) async throws -> AdminProfileSchema {
        let fields = try await database.read { repositories -> [ProfileFieldDefinition]? in
            guard try await repositories.applications.projectName(id: projectId) != nil else { return nil }
            return try await repositories.profiles.schema(projectId: projectId)
        }
        guard let fields else { throw AdminError.projectNotFound(projectId: projectId) }
        return AdminProfileSchema(projectId: projectId, fields: fields)
    }

    /// Replaces the project's profile schema after validating every field (``ProfileValidation``): nothing
    /// is saved when one is invalid, and the refusal names each. Profiles keep their values; a
    /// field no longer in the schema is dropped at the profile's next update.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)``, ``AdminError/projectNotFound(projectId:)``.
    package func setProfileSchema(projectId: String, fields: [ProfileFieldDefinition]) async throws -> AdminProfileSchema {
        let problems = ProfileValidation.problems(in: fields)
        guard problems.isEmpty else {
            throw AdminError.invalidInput(
                field: "fields",
                message: "The profile schema is invalid: " + problems.map { "\($0.name): \($0.reason)" }.joined(separator: " "))
        }
        let now = clock.now().epochMilliseconds
        let saved = try await database.write { repositories -> Bool in
            guard try await repositories.applications.projectName(id: projectId) != nil else { return false }
            try await repositories.profiles.setSchema(fields, projectId: projectId, at: now)
            return true
        }
        guard saved else { throw AdminError.projectNotFound(projectId: projectId) }
        return AdminProfileSchema(projectId: projectId, fields: fields)
    }

}
