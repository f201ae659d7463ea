import KeywayProtocol

/// The result of one delivery attempt.
enum DeliveryOutcome: Sendable, Equatable {
    /// The provider accepted the message.
    case delivered
    /// The attempt failed in a way a later attempt may not (a timeout, a server error): the
    /// worker retries with backoff. The reason is stored and logged: it never holds message text.
    case retryable(String)
    /// The attempt failed in a way no retry fixes (a refused recipient, a misconfiguration):
    /// the message becomes a dead letter. The reason never holds message text.
    case permanent(String)
}

/// Delivers outbox messages over one channel: email or SMS share this interface, so a provider
/// (a webhook, the dev outbox, a command, later SMTP) serves either.
protocol DeliveryProvider: Sendable {
    /// Makes one attempt to deliver `message`. Must not throw or log the message text; the
    /// outcome decides whether the worker retries.
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome
}

/// Chooses the provider of each `(project, channel)` pair. Answering `nil` makes the message a
/// dead letter ("no provider").
struct DeliveryRouting: Sendable {
    /// The provider for a project's channel.
    let provider: @Sendable (_ projectId: String, _ channel: CodeChannel) async -> (any DeliveryProvider)?

    /// Routes with a closure.
    init(_ provider: @escaping @Sendable (_ projectId: String, _ channel: CodeChannel) async -> (any DeliveryProvider)?) {
        self.provider = provider
    }

    /// Every project and channel to one provider.
    static func always(_ provider: any DeliveryProvider) -> DeliveryRouting {
        DeliveryRouting { _, _ in provider }
    }
}
