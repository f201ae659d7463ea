import Foundation
import KeywayServer
import KeywayTestSupport

/// The independent OpenID Connect provider of `Tests/Interop/oidc_provider.py` (joserfc and
/// cryptography), run as a child process on loopback: discovery, an authorization endpoint that
/// signs in one pre-set user without a page, a token endpoint with client authentication and
/// the PKCE check, RS256 ID tokens and its key set.
final class PythonOIDCProvider: ScopedTestServer, Sendable {
    private let process: ChildProcess
    /// `http://HOST:PORT`, as its discovery document names it.
    let issuer: String
    let clientId: String
    let clientSecret: String

    private init(process: ChildProcess, issuer: String, clientId: String, clientSecret: String) {
        self.process = process
        self.issuer = issuer
        self.clientId = clientId
        self.clientSecret = clientSecret
    }

    /// Starts the provider for a client whose registered redirect URI is `redirectURI`; its one
    /// user is `subject`, with the verified address `email`. It listens on 127.0.0.1; its issuer
    /// names `hostName` (`localhost` makes it another site than a server at 127.0.0.1, as a real
    /// provider is, for a browser's cookies).
    static func start(
        redirectURI: String, subject: String, email: String, clientId: String = "keyway-downstream",
        clientSecret: String = "python-provider-secret-0123", hostName: String = "127.0.0.1"
    ) async throws -> PythonOIDCProvider {
        let script = PythonScript.root.appendingPathComponent("Tests/Interop/oidc_provider.py").path
        let process = try ChildProcess(
            executable: "python3",
            arguments: [
                script, "--client-id", clientId, "--client-secret", clientSecret, "--redirect-uri", redirectURI,
                "--subject", subject, "--email", email, "--host-name", hostName,
            ])
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let output = String(decoding: process.standardOutput, as: UTF8.self)
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }) {
                return PythonOIDCProvider(
                    process: process, issuer: String(line.dropFirst("listening ".count)), clientId: clientId,
                    clientSecret: clientSecret)
            }
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure(
                    "The Python provider did not start: \(String(decoding: process.standardError, as: UTF8.self))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Its port.
    var port: Int { URLComponents(string: issuer)?.port ?? 0 }

    /// Stops it and waits for its exit. Calling it again does nothing more.
    func stop() async {
        guard process.isRunning else { return }
        process.terminate()
        _ = await process.waitForExit(timeout: .seconds(10))
    }
}
