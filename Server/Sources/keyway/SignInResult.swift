import ArgumentParser
import Foundation
import Keyway

/// The end of a flow that signs someone in: redeem the code, keep the session, print the result.
enum SignInResult {
    /// Redeems the code, saves the tokens in `stored` and prints them (as JSON on standard output
    /// with `json`, else a summary on standard error). Throws `ExitCode.failure` when the code
    /// cannot be redeemed.
    static func finish(
        _ completed: FlowSession.Completed, keyway: KeywayClient, stored: KeywaySession, terminal: Terminal, json: Bool
    ) async throws {
        do {
            let tokens = try await keyway.exchange(authCode: completed.authCode, codeVerifier: completed.codeVerifier)
            do {
                try await stored.save(tokens)
            } catch {
                terminal.status("Warning: the session could not be saved: \(error)")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                terminal.output(String(decoding: try encoder.encode(tokens.response), as: UTF8.self))
            } else {
                terminal.status("Signed in as \(tokens.idToken.email ?? tokens.idToken.subject).")
                terminal.status("Subject:        \(tokens.idToken.subject)")
                terminal.status("Session:        \(tokens.idToken.sessionId ?? "-")")
                terminal.status("Access token expires at \(Terminal.format(tokens.accessTokenExpiresAt)).")
            }
        } catch {
            terminal.status("Error: the code could not be redeemed: \(error)")
            throw ExitCode.failure
        }
    }
}
