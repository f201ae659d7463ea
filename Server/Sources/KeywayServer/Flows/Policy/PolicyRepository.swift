import Foundation
import KeywayProtocol
import SQLKit

/// Application policies, one JSON document per application. A missing row reads as the default
/// policy, with the application's flow types.
struct PolicyRepository: Sendable {
    let sql: any SQLDatabase

    /// The application's policy (signing secrets unmasked), or `nil` when the application does
    /// not exist.
    func policy(applicationId: String) async throws -> ApplicationPolicy? {
        if let stored = try await storedPolicy(applicationId: applicationId) { return stored }
        guard let application = try await ApplicationRepository(sql: sql).find(id: applicationId) else { return nil }
        return .default(flowTypes: application.flowTypes)
    }

    /// The policy stored for the application, or `nil` when none is (the default applies).
    func storedPolicy(applicationId: String) async throws -> ApplicationPolicy? {
        guard
            let text = try await sql.raw(
                "SELECT policy FROM application_policies WHERE application_id = \(bind: applicationId)"
            ).first()?.decode(column: "policy", as: String.self)
        else { return nil }
        return try JSONDecoder().decode(ApplicationPolicy.self, from: Data(text.utf8))
    }

    /// Stores the policy (replacing any earlier one) and sets the application's flow types to
    /// the policy's. The caller validates first.
    func setPolicy(_ policy: ApplicationPolicy, applicationId: String, at time: Int64) async throws {
        let text = String(decoding: try JSONEncoder().encode(policy), as: UTF8.self)
        try await sql.raw(
            """
            INSERT INTO application_policies (application_id, policy, updated_at)
            VALUES (\(bind: applicationId), \(bind: text), \(bind: time))
            ON CONFLICT (application_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at
            """
        ).run()
        try await ApplicationRepository(sql: sql).setFlowTypes(Set(policy.flowTypes), id: applicationId)
    }
}

extension Repositories {
    /// ``PolicyRepository`` on this connection or transaction.
    var policies: PolicyRepository { PolicyRepository(sql: sql) }
}
