import Foundation
import KeywayProtocol
import SQLKit

/// Profile schemas (per project) and user profiles, each stored as one JSON document.
struct ProfileRepository: Sendable {
    let sql: any SQLDatabase

    func schema(projectId: String) async throws -> [ProfileFieldDefinition] {
        guard
            let text = try await sql.raw("SELECT fields FROM profile_schemas WHERE project_id = \(bind: projectId)")
                .first()?.decode(column: "fields", as: String.self)
        else { return [] }
        return try JSONDecoder().decode([ProfileFieldDefinition].self, from: Data(text.utf8))
    }

    func setSchema(_ fields: [ProfileFieldDefinition], projectId: String, at time: Int64) async throws {
        let text = String(decoding: try JSONEncoder().encode(fields), as: UTF8.self)
        try await sql.raw(
            """
            INSERT INTO profile_schemas (project_id, fields, updated_at) VALUES (\(bind: projectId), \(bind: text), \(bind: time))
            ON CONFLICT (project_id) DO UPDATE SET fields = excluded.fields, updated_at = excluded.updated_at
            """
        ).run()
    }

    func profile(userId: String) async throws -> [String: ProfileValue] {
        guard
            let text = try await sql.raw("SELECT data FROM user_profiles WHERE user_id = \(bind: userId)").first()?
                .decode(column: "data", as: String.self)
        else { return [:] }
        return try JSONDecoder().decode([String: ProfileValue].self, from: Data(text.utf8))
    }

    func setProfile(_ profile: [String: ProfileValue], userId: String, at time: Int64) async throws {
        let text = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
        try await sql.raw(
            """
            INSERT INTO user_profiles (user_id, data, updated_at) VALUES (\(bind: userId), \(bind: text), \(bind: time))
            ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
            """
        ).run()
    }
}

extension Repositories {
    /// ``ProfileRepository`` on this connection or transaction.
    var profiles: ProfileRepository { ProfileRepository(sql: sql) }
}
