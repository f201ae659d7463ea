import Foundation
import Keyway

/// The end of a flow that signed someone in: the tokens, printed.
enum SignInResult {
    /// Prints `tokens`: the verified token response as JSON on standard output with `json`, else
    /// a summary on standard error.
    static func show(_ tokens: TokenSet, terminal: Terminal, json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            terminal.output(String(decoding: try encoder.encode(tokens.response), as: UTF8.self))
        } else {
            if tokens.idToken.isAnonymous {
                terminal.status("Signed in as a guest.")
            } else {
                let claims = tokens.idToken
                terminal.status("Signed in as \(claims.email ?? claims.phoneNumber ?? claims.subject).")
            }
            terminal.status("Subject:        \(tokens.idToken.subject)")
            terminal.status("Session:        \(tokens.idToken.sessionID ?? "-")")
            terminal.status("Access token expires at \(Terminal.format(tokens.accessTokenExpiresAt)).")
        }
    }
}
