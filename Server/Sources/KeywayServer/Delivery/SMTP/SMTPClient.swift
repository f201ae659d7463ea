import Foundation
import NIOCore
import NIOSSL

/// Sends one message through an SMTP relay (RFC 5321): greeting, `EHLO` (`HELO` only when `EHLO`
/// is refused as unknown), `STARTTLS` (RFC 3207) and `EHLO` again, `AUTH PLAIN` or `AUTH LOGIN`
/// (RFC 4954) when credentials are configured, `MAIL FROM`, `RCPT TO`, `DATA` with the message
/// dot-stuffed, and `QUIT`. A new connection per message; nothing is pipelined.
struct SMTPClient: Sendable {
    let configuration: SMTPRelayConfiguration
    /// The TLS context for implicit TLS and `STARTTLS`; made once, shared by every attempt.
    let tls: NIOSSLContext

    init(configuration: SMTPRelayConfiguration, tls: NIOSSLContext) {
        self.configuration = configuration
        self.tls = tls
    }

    /// Delivers `message`; throws why not. The whole session takes at most
    /// ``SMTPRelayConfiguration/attemptLimit``.
    func send(_ message: SMTPMessage) async throws(SMTPFailure) {
        let text: [UInt8]
        do {
            text = try message.encoded()
        } catch {
            throw .invalidMessage(error)
        }
        let deadline = NIODeadline.now() + TimeAmount(SMTPRelayConfiguration.attemptLimit)
        let step = TimeAmount.seconds(Int64(configuration.timeoutSeconds))
        /// The step timeout, or what is left of the attempt's, whichever is shorter.
        func timeout() -> TimeAmount { max(.zero, min(step, deadline - .now())) }

        var connection = try await SMTPConnection.connect(
            host: configuration.host, port: configuration.port,
            tls: configuration.security == .tls ? tls : nil, timeout: timeout())
        defer { connection.close() }

        try Self.expect(try await connection.reply(stage: .greeting, timeout: timeout()), stage: .greeting)
        var extensions = try await greet(connection, timeout: timeout)
        if configuration.security == .starttls {
            guard extensions != nil, extensions?["STARTTLS"] != nil else { throw .startTLSNotOffered }
            try Self.expect(try await connection.command("STARTTLS", stage: .starttls, timeout: timeout()), stage: .starttls)
            try await connection.startTLS(tls, host: configuration.host)
            extensions = try await greet(connection, timeout: timeout)
        }
        if let username = configuration.username, let password = configuration.password {
            guard connection.isEncrypted || LoopbackHost.contains(configuration.host) else {
                throw .authenticationWouldBeUnencrypted
            }
            try await authenticate(
                connection, username: username, password: password.revealed, mechanisms: extensions?["AUTH"] ?? [],
                timeout: timeout)
        }
        var mailFrom = "MAIL FROM:<\(message.from.address)>"
        if message.needsSMTPUTF8 {
            guard extensions?["SMTPUTF8"] != nil else { throw .smtpUTF8NotOffered }
            mailFrom += " SMTPUTF8"
        }
        try Self.expect(try await connection.command(mailFrom, stage: .mailFrom, timeout: timeout()), stage: .mailFrom)
        try Self.expect(
            try await connection.command("RCPT TO:<\(message.to)>", stage: .rcptTo, timeout: timeout()), stage: .rcptTo)
        let data = try await connection.command("DATA", stage: .data, timeout: timeout())
        guard data.code == 354 else {
            try Self.expect(data, stage: .data)
            throw .protocolViolation(.data)
        }
        connection.write(SMTPMessage.dotStuffed(text))
        try Self.expect(try await connection.reply(stage: .message, timeout: timeout()), stage: .message)
        // Delivered: the answer to QUIT changes nothing.
        _ = try? await connection.command("QUIT", stage: .message, timeout: min(timeout(), .seconds(2)))
    }

    /// `EHLO`, or `HELO` when the relay does not know `EHLO` (a 5xx): answers the extensions the
    /// relay offers, or `nil` after `HELO` (which offers none).
    private func greet(_ connection: SMTPConnection, timeout: () -> TimeAmount) async throws(SMTPFailure)
        -> [String: [String]]?
    {
        let ehlo = try await connection.command("EHLO \(configuration.heloName)", stage: .ehlo, timeout: timeout())
        if ehlo.isPositive { return ehlo.extensions }
        // 500, 502, 504: the command is unknown or not implemented.
        guard [500, 502, 504].contains(ehlo.code) else { throw .refused(.ehlo, code: ehlo.code) }
        let helo = try await connection.command("HELO \(configuration.heloName)", stage: .ehlo, timeout: timeout())
        try Self.expect(helo, stage: .ehlo)
        return nil
    }

    /// `AUTH PLAIN` when the relay offers it, else `AUTH LOGIN`.
    private func authenticate(
        _ connection: SMTPConnection, username: String, password: String, mechanisms: [String],
        timeout: () -> TimeAmount
    ) async throws(SMTPFailure) {
        if mechanisms.contains("PLAIN") {
            let credentials = Data([0] + Array(username.utf8) + [0] + Array(password.utf8)).base64EncodedString()
            try Self.expect(
                try await connection.command("AUTH PLAIN \(credentials)", stage: .auth, timeout: timeout()), stage: .auth)
        } else if mechanisms.contains("LOGIN") {
            for (index, value) in [nil, username, password].enumerated() {
                let line = value.map { Data($0.utf8).base64EncodedString() } ?? "AUTH LOGIN"
                let reply = try await connection.command(line, stage: .auth, timeout: timeout())
                if index < 2 {
                    guard reply.code == 334 else {
                        try Self.expect(reply, stage: .auth)
                        throw .protocolViolation(.auth)
                    }
                } else {
                    try Self.expect(reply, stage: .auth)
                }
            }
        } else {
            throw .authenticationNotOffered
        }
    }

    /// Accepts a 2xx reply; a 4xx or 5xx is a refusal at `stage`, anything else a protocol error.
    private static func expect(_ reply: SMTPReply, stage: SMTPStage) throws(SMTPFailure) {
        if reply.isPositive { return }
        if reply.isTransient || reply.isPermanent { throw .refused(stage, code: reply.code) }
        throw .protocolViolation(stage)
    }
}
