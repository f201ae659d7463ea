import Crypto
import Foundation
import KeywayProtocol
import Logging
import NIOCore

extension DeliveryRouting {
    /// Routes each message to the webhook its project's policy configures for the channel
    /// (`delivery.sms`, `delivery.email` of the project's applications, the oldest first); an
    /// email without one to the SMTP relay when `smtp` is given, from the sender the first of those
    /// policies to name one sets (`delivery.emailSender`), else the relay's; anything else to
    /// `fallback` (the dev outbox, or the delivery command), or nowhere (a dead letter) without
    /// one. The policy is read at every attempt, so a changed webhook or sender applies to retries
    /// too.
    static func projects(
        database: any Database, clock: any ServerClock, fallback: (any DeliveryProvider)?, smtp: SMTPClient? = nil,
        logger: Logger
    ) -> DeliveryRouting {
        DeliveryRouting { projectId, channel in
            let settings: (webhook: WebhookSettings?, sender: EmailSender?)
            do {
                settings = try await database.read { repositories -> (WebhookSettings?, EmailSender?) in
                    var sender: EmailSender?
                    for application in try await repositories.applications.all(projectId: projectId) {
                        guard let policy = try await repositories.policies.storedPolicy(applicationId: application.id) else {
                            continue
                        }
                        let configured =
                            switch channel {
                            case .sms: policy.delivery.sms
                            case .event: policy.delivery.events
                            default: policy.delivery.email
                            }
                        if let configured { return (configured, nil) }
                        sender = sender ?? policy.delivery.emailSender
                    }
                    return (nil, sender)
                }
            } catch {
                // The policy could not be read: the attempt fails as retryable, and the worker
                // tries again with backoff.
                logger.warning("delivery routing failed", metadata: ["project": "\(projectId)"])
                return UnroutableDelivery()
            }
            guard let webhook = settings.webhook else {
                switch channel {
                // Events only ever go to a configured webhook.
                case .event: return nil
                case .email:
                    guard let smtp else { return fallback }
                    return SMTPDeliveryProvider(
                        client: smtp, sender: settings.sender ?? smtp.configuration.sender, clock: clock, logger: logger)
                default: return fallback
                }
            }
            guard let url = URL(string: webhook.url) else { return nil }
            return WebhookDeliveryProvider(
                url: url, secret: Sensitive(SymmetricKey(data: Data(webhook.signingSecret.utf8))),
                timeout: .seconds(Int64(webhook.timeoutSeconds)), clock: clock, logger: logger)
        }
    }
}

/// The provider of an attempt whose route could not be read: always retryable.
private struct UnroutableDelivery: DeliveryProvider {
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        .retryable("the project's delivery settings could not be read")
    }
}
