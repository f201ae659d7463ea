import Foundation

/// What the server prints at start, to standard output: the dev-mode banner and a newly created admin token.
enum Banner {
    static func dev(configId: String, issuer: String, database: String) -> String {
        let serverFlag = issuer == "http://127.0.0.1:8080" ? "" : " --server \(issuer)"
        return """

            ──────────────────────────────────────────────────────────────────────
              Keyway is running in dev mode
              Config ID   \(configId)
              Issuer      \(issuer)
              Database    \(database)
              Codes       printed below and served at \(issuer)/dev/outbox

              Next, sign in from another terminal:
                swift run --package-path Server keyway login\(serverFlag) --config-id \(configId) you@example.com
            ──────────────────────────────────────────────────────────────────────

            """
    }

    /// The line showing an admin token created at this start.
    static func adminToken(_ token: String) -> String {
        "Admin token: \(token) (shown once; rotate with `keyway-server admin rotate-token`)\n"
    }
}
