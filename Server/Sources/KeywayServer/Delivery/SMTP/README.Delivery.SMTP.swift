// Delivery/SMTP/ — email through the server's SMTP relay: one connection per message, STARTTLS or TLS, AUTH.
//
// - `SMTPClient.swift`: one session per message: `EHLO`, `STARTTLS`, `AUTH`, `MAIL FROM`, `RCPT TO`, `DATA`.
// - `SMTPConnection.swift`: one connection to the relay: commands out, replies in, the switch to TLS.
// - `SMTPDeliveryProvider.swift`: the provider sending email through the relay; 4xx retried, 5xx final.
// - `SMTPFailure.swift`: `SMTPStage` and `SMTPFailure`: where a session failed, and whether to retry.
// - `SMTPMessage.swift`: an RFC 5322 plain-text email; a header value with a line break throws.
// - `SMTPRelayConfiguration.swift`: the relay's host, security, credentials and default sender.
// - `SMTPReply.swift`: `SMTPReply` and `SMTPReplyParser`: multi-line replies and EHLO keywords.
// - `SMTPReplyHandler.swift`: the channel handler handing parsed replies to the waiting command.
