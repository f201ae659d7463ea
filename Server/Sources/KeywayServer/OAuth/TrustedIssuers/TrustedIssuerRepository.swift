import Foundation
import KeywayProtocol
import SQLKit

/// Trusted external issuers and the external identities linked to users.
struct TrustedIssuerRepository: Sendable {
    let sql: any SQLDatabase

    struct Issuer: Sendable {
        var issuer: String
        var audience: String
        /// The issuer's keys when configured statically.
        var keys: JSONWebKeySet?
        /// Where the issuer publishes its keys, when they are fetched.
        var jwksURL: URL?
        var linkByVerifiedEmail: Bool
        var createUsers: Bool
    }

    func issuer(projectId: String, issuer: String) async throws -> Issuer? {
        guard
            let row = try await sql.raw(
                "SELECT * FROM trusted_issuers WHERE project_id = \(bind: projectId) AND issuer = \(bind: issuer)"
            ).first()
        else { return nil }
        let jwks = try row.decode(column: "jwks", as: String?.self)
        return Issuer(
            issuer: try row.decode(column: "issuer", as: String.self),
            audience: try row.decode(column: "audience", as: String.self),
            keys: try jwks.map { try JSONDecoder().decode(JSONWebKeySet.self, from: Data($0.utf8)) },
            jwksURL: try row.decode(column: "jwks_url", as: String?.self).flatMap(URL.init(string:)),
            linkByVerifiedEmail: try row.decode(column: "link_by_email", as: Int64.self) != 0,
            createUsers: try row.decode(column: "create_users", as: Int64.self) != 0)
    }

    func upsertIssuer(_ issuer: Issuer, projectId: String, at time: Int64) async throws {
        let jwks = try issuer.keys.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await sql.raw(
            """
            INSERT INTO trusted_issuers (project_id, issuer, audience, jwks, jwks_url, link_by_email, create_users, created_at)
            VALUES (\(bind: projectId), \(bind: issuer.issuer), \(bind: issuer.audience), \(bind: jwks),
                \(bind: issuer.jwksURL?.absoluteString),
                \(bind: Int64(issuer.linkByVerifiedEmail ? 1 : 0)), \(bind: Int64(issuer.createUsers ? 1 : 0)),
                \(bind: time))
            ON CONFLICT (project_id, issuer) DO UPDATE SET audience = excluded.audience, jwks = excluded.jwks,
                jwks_url = excluded.jwks_url,
                link_by_email = excluded.link_by_email, create_users = excluded.create_users
            """
        ).run()
    }

    func linkedUser(projectId: String, issuer: String, subject: String) async throws -> String? {
        try await sql.raw(
            """
            SELECT user_id FROM external_identities
            WHERE project_id = \(bind: projectId) AND issuer = \(bind: issuer) AND subject = \(bind: subject)
            """
        ).first()?.decode(column: "user_id", as: String.self)
    }

    func link(projectId: String, issuer: String, subject: String, userId: String, at time: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO external_identities (project_id, issuer, subject, user_id, created_at)
            VALUES (\(bind: projectId), \(bind: issuer), \(bind: subject), \(bind: userId), \(bind: time))
            """
        ).run()
    }
}

extension TrustedIssuerRepository {
    /// Removes a trusted issuer; users already linked through it keep their accounts.
    func removeIssuer(projectId: String, issuer: String) async throws {
        try await sql.raw(
            "DELETE FROM trusted_issuers WHERE project_id = \(bind: projectId) AND issuer = \(bind: issuer)"
        ).run()
    }
}

extension Repositories {
    /// ``TrustedIssuerRepository`` on this connection or transaction.
    var trustedIssuers: TrustedIssuerRepository { TrustedIssuerRepository(sql: sql) }
}
