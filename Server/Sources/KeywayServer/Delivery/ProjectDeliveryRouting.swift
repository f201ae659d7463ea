import Crypto
import Foundation
import KeywayProtocol
import Logging
import NIOCore

extension DeliveryRouting {
    /// Routes each message to the webhook its project's policy configures for the channel
    /// (`delivery.sms`, `delivery.email` of the project's applications, the oldest first), and
    /// to `fallback` (the dev outbox, or the delivery command) when none does. The policy is read
    /// at every attempt, so a changed webhook applies to retries too.
    static func projects(
        database: any Database, clock: any ServerClock, fallback: any DeliveryProvider, logger: Logger
    ) -> DeliveryRouting {
        DeliveryRouting { projectId, channel in
            let settings: WebhookSettings?
            do {
                settings = try await database.read { repositories -> WebhookSettings? in
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
                        if let configured { return configured }
                    }
                    return nil
                }
            } catch {
                // The policy could not be read: the attempt fails as retryable, and the worker
                // tries again with backoff.
                logger.warning("delivery routing failed", metadata: ["project": "\(projectId)"])
                return UnroutableDelivery()
            }
            // Events only ever go to a configured webhook.
            guard let settings else { return channel == .event ? nil : fallback }
            guard let url = URL(string: settings.url) else { return nil }
            return WebhookDeliveryProvider(
                url: url, secret: Sensitive(SymmetricKey(data: Data(settings.signingSecret.utf8))),
                timeout: .seconds(Int64(settings.timeoutSeconds)), clock: clock, logger: logger)
        }
    }
}

/// The provider of an attempt whose route could not be read: always retryable.
private struct UnroutableDelivery: DeliveryProvider {
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        .retryable("the project's delivery settings could not be read")
    }
}
