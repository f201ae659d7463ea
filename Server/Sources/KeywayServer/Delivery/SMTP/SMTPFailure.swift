/// Where in an SMTP session something went wrong.
enum SMTPStage: String, Sendable {
    case connect, greeting, ehlo, starttls, auth, mailFrom, rcptTo, data, message
}

/// Why an SMTP attempt failed, and whether trying again later may help. Carries no reply text
/// (a relay may echo addresses or content there) and nothing of the message.
enum SMTPFailure: Error, Equatable {
    /// The relay could not be reached (refused, unreachable, no such host).
    case unreachable
    /// The relay did not answer in time.
    case timedOut(SMTPStage)
    /// The relay closed the connection.
    case closed(SMTPStage)
    /// The relay's bytes are not SMTP replies, or arrived when none was due.
    case protocolViolation(SMTPStage)
    /// The relay answered a command with a 4xx or 5xx reply.
    case refused(SMTPStage, code: Int)
    /// `STARTTLS` is required and the relay did not offer it.
    case startTLSNotOffered
    /// The TLS handshake failed: the certificate is not trusted or does not name the relay, or no
    /// protocol version or cipher is shared.
    case tlsHandshakeFailed
    /// Credentials are configured and the relay offers neither `AUTH PLAIN` nor `AUTH LOGIN`.
    case authenticationNotOffered
    /// Credentials would go over an unencrypted connection to a relay not on loopback.
    case authenticationWouldBeUnencrypted
    /// An address is not ASCII and the relay does not offer `SMTPUTF8`.
    case smtpUTF8NotOffered
    /// The message cannot be written: a header value with a line break, an unusable address.
    case invalidMessage(SMTPMessage.Failure)

    /// The attempt's outcome: 4xx replies, timeouts and connection failures are worth a retry;
    /// 5xx replies and what the configuration or the message must change are not.
    var outcome: DeliveryOutcome {
        switch self {
        case .unreachable: .retryable("the SMTP relay could not be reached")
        case .timedOut(let stage): .retryable("the SMTP relay did not answer in time (\(stage.rawValue))")
        case .closed(let stage): .retryable("the SMTP relay closed the connection (\(stage.rawValue))")
        case .protocolViolation(let stage): .retryable("the SMTP relay broke the protocol (\(stage.rawValue))")
        case .refused(let stage, let code):
            code >= 500
                ? .permanent("the SMTP relay refused \(Self.what(stage)) (\(code))")
                : .retryable("the SMTP relay refused \(Self.what(stage)) for now (\(code))")
        case .startTLSNotOffered: .permanent("the SMTP relay does not offer STARTTLS, which is required")
        case .tlsHandshakeFailed:
            .permanent("the TLS handshake with the SMTP relay failed (an untrusted certificate, or another name)")
        case .authenticationNotOffered: .permanent("the SMTP relay offers neither AUTH PLAIN nor AUTH LOGIN")
        case .authenticationWouldBeUnencrypted:
            .permanent("the SMTP credentials would go unencrypted to a relay that is not on loopback")
        case .smtpUTF8NotOffered: .permanent("the address is not ASCII and the SMTP relay does not offer SMTPUTF8")
        case .invalidMessage(.headerInjection(let field)):
            .permanent("the message's \(field) header would hold a line break or another control character")
        case .invalidMessage(.invalidAddress(let field)): .permanent("the message's \(field) address is not usable")
        }
    }

    /// What a refusal at `stage` refused.
    private static func what(_ stage: SMTPStage) -> String {
        switch stage {
        case .connect, .greeting: "the connection"
        case .ehlo: "the greeting (EHLO and HELO)"
        case .starttls: "STARTTLS"
        case .auth: "the credentials"
        case .mailFrom: "the sender"
        case .rcptTo: "the recipient"
        case .data, .message: "the message"
        }
    }
}
