import Foundation
import KeywayProtocol
import Logging

/// Delivers email through the server's SMTP relay: the message's subject and body as
/// `text/plain`, from the project's sender (`delivery.emailSender`) or the relay's.
///
/// 4xx replies, timeouts and connection failures are retried; 5xx replies (a refused recipient,
/// refused credentials), a relay without the required `STARTTLS` and an untrusted certificate are
/// permanent failures. Log lines and failure reasons never carry the message text, the relay's
/// reply text or the password.
struct SMTPDeliveryProvider: DeliveryProvider, CustomStringConvertible {
    private let client: SMTPClient
    private let sender: EmailSender
    private let clock: any ServerClock
    private let logger: Logger

    /// A provider sending through `client` from `sender`.
    init(client: SMTPClient, sender: EmailSender, clock: any ServerClock, logger: Logger) {
        self.client = client
        self.sender = sender
        self.clock = clock
        self.logger = logger
    }

    var description: String { "SMTPDeliveryProvider(\(client.configuration.host))" }

    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        guard message.channel == .email else { return .permanent("the SMTP relay only delivers email") }
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "keyway.invalid"
        let email = SMTPMessage(
            from: sender, to: message.recipient, subject: message.subject, body: message.body.revealed,
            date: clock.now(), messageId: "\(message.id)@\(domain)")
        do {
            try await client.send(email)
            logger.debug("SMTP relay accepted the message", metadata: ["delivery": "\(message.id)"])
            return .delivered
        } catch {
            return error.outcome
        }
    }
}
