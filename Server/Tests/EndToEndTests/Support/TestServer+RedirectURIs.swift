import Foundation

extension TestServer {
    /// Registers `uri` as a login redirect URI of the test application, unless it already is.
    func registerLoginRedirectURI(_ uri: String) async throws {
        try await execute(
            """
            INSERT INTO application_redirect_uris (application_id, kind, uri)
            SELECT id, 'login', '\(uri)' FROM applications a WHERE config_id = '\(TestServer.configId)'
            AND NOT EXISTS (SELECT 1 FROM application_redirect_uris r
                            WHERE r.application_id = a.id AND r.kind = 'login' AND r.uri = '\(uri)')
            """)
    }
}
