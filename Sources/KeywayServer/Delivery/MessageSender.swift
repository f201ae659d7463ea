import Foundation
import KeywayProtocol

/// A message carrying a one-time code, on its way to a user through the delivery outbox.
struct OutgoingMessage: Sendable {
    var channel: CodeChannel
    var to: String
    var code: Sensitive<String>
    var subject: String
    var body: String
}

/// The text of a sign-in code message.
enum MessageTemplates {
    static func signInCode(_ code: String, minutes: Int) -> (subject: String, body: String) {
        (
            "Your sign-in code",
            "Your sign-in code is \(code). It expires in \(minutes) minutes. If you did not try to sign in, ignore this message."
        )
    }
}
