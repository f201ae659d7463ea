// Delivery/ — messages carrying one-time codes: the outbox, its worker, the providers and the settings that route them.
//
// - `CommandDelivery.swift`: runs the operator's delivery command per message, JSON on standard input.
// - `DeliveryMessage.swift`: a message claimed from the outbox for one attempt, as a provider gets it.
// - `DeliveryProvider.swift`: the `DeliveryProvider` protocol, `DeliveryOutcome` and `DeliveryRouting`.
// - `DeliveryRequest.swift`: a message to enqueue, its text and code `Sensitive`, with an idempotency key.
// - `DeliveryRetryPolicy.swift`: attempts, exponential backoff and jitter.
// - `DeliveryStatus.swift`: where an outbox message stands (pending, sending, delivered, dead).
// - `DeliveryWorker.swift`: the service that claims due messages with a lease and records each outcome.
// - `DevOutbox.swift`: dev mode's provider: each message logged and kept for `GET /dev/outbox`.
// - `EmailSettings.swift`: who a project's email is from (`EmailSender`), and an application's texts.
// - `OutgoingMessage.swift`: `OutgoingMessage` and `MessageTemplates`: the text of code messages.
// - `ProjectDeliveryRouting.swift`: each message routed to its project's webhook, the SMTP relay or fallback.
// - `WakeSignal.swift`: wakes one waiting task early: the worker's nudge after an enqueue.
// - `WebhookDeliveryProvider.swift`: a signed JSON `POST` per message (`Keyway-Signature`).
// - `WebhookSettings.swift`: `WebhookSettings` and `DeliverySettings`: an application's webhooks.
// - `SMTP/`: email through the SMTP relay: client, connection, replies, message, failures, provider.
// - `Storage/`: the outbox's repository (`delivery_outbox`).
//
// A message is enqueued in the transaction of the change that needs it; the worker delivers it
// afterwards, retrying with backoff, and wipes its text once it is delivered or dead.
