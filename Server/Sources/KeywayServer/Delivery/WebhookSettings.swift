/// Where messages of one channel are delivered: an HTTPS (or HTTP) endpoint that receives each
/// message as a signed JSON `POST`.
public struct WebhookSettings: Codable, Sendable, Equatable {
    /// The text that replaces the signing secret when a policy is shown.
    public static let maskedSecret = "********"

    /// The endpoint: an absolute `http` or `https` URL with a host.
    public var url: String
    /// The key requests are signed with; at least 32 characters. Never shown again once saved:
    /// reads answer ``maskedSecret``.
    public var signingSecret: String
    /// How long a delivery may take, in seconds (1…30).
    public var timeoutSeconds: Int

    public init(url: String, signingSecret: String, timeoutSeconds: Int = 10) {
        self.url = url
        self.signingSecret = signingSecret
        self.timeoutSeconds = timeoutSeconds
    }

    private enum CodingKeys: String, CodingKey { case url, signingSecret, timeoutSeconds }

    /// Decodes settings; `timeoutSeconds` defaults to 10.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        signingSecret = try container.decode(String.self, forKey: .signingSecret)
        timeoutSeconds = try container.decodeIfPresent(Int.self, forKey: .timeoutSeconds) ?? 10
    }

    /// The same settings with the signing secret masked.
    public var masked: WebhookSettings {
        var copy = self
        copy.signingSecret = Self.maskedSecret
        return copy
    }
}

/// How an application's messages leave the server, per channel. An email channel without a
/// webhook uses the server's SMTP relay when one is configured; otherwise a channel without
/// settings uses the server's delivery: the dev outbox in dev mode, the delivery command otherwise.
public struct DeliverySettings: Codable, Sendable, Equatable {
    /// Text messages (SMS one-time codes).
    public var sms: WebhookSettings?
    /// Email messages (email one-time codes).
    public var email: WebhookSettings?
    /// Events for the project's backend (`approval.requested`, so it can send a push
    /// notification). Without settings no event is sent.
    public var events: WebhookSettings?
    /// Who email sent through the server's SMTP relay is from (`From` and `MAIL FROM`); without
    /// it, the relay's own sender (`--smtp-from`). Not used by the other providers.
    public var emailSender: EmailSender?
    /// The application's own email texts; without them, the server's.
    public var emailTemplates: EmailTemplates?

    public init(
        sms: WebhookSettings? = nil, email: WebhookSettings? = nil, events: WebhookSettings? = nil,
        emailSender: EmailSender? = nil, emailTemplates: EmailTemplates? = nil
    ) {
        self.sms = sms
        self.email = email
        self.events = events
        self.emailSender = emailSender
        self.emailTemplates = emailTemplates
    }
}
