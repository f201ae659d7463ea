import AsyncHTTPClient
import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging
import NIOCore
import NIOHTTP1

/// Delivers each message as a signed JSON `POST` to an operator's endpoint, which passes it on
/// (to an email or SMS service).
///
/// The body is `{"id","channel","to","subject","body","createdAt"}`. Headers:
/// `Keyway-Idempotency-Key` (the same on every attempt of one message) and `Keyway-Signature:
/// t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Any 2xx counts as delivered;
/// 408, 429, 5xx, timeouts and connection failures are retried; other answers are permanent
/// failures. Neither the body nor the secret (nor the URL, which may hold a token) is logged.
struct WebhookDeliveryProvider: DeliveryProvider, CustomStringConvertible {
    /// The header naming the message across attempts.
    static let idempotencyKeyHeader = "Keyway-Idempotency-Key"
    /// The header carrying the timestamp and HMAC of the body.
    static let signatureHeader = "Keyway-Signature"
    /// The most of a response body read (and discarded).
    static let maximumResponseSize = 64 * 1024

    /// The JSON body, as the receiver sees it.
    struct Payload: Codable, Sendable, Equatable {
        var id: String
        var channel: String
        var to: String
        var subject: String
        var body: String
        var createdAt: String
    }

    private let url: URL
    private let secret: Sensitive<SymmetricKey>
    private let timeout: TimeAmount
    private let clock: any ServerClock
    private let httpClient: HTTPClient
    private let logger: Logger

    /// A provider posting to `url`, signing with `secret`, giving each attempt `timeout` (the
    /// connection included).
    init(
        url: URL, secret: Sensitive<SymmetricKey>, timeout: TimeAmount = .seconds(10), clock: any ServerClock,
        httpClient: HTTPClient = .shared, logger: Logger
    ) {
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.clock = clock
        self.httpClient = httpClient
        self.logger = logger
    }

    var description: String { "WebhookDeliveryProvider(\(url.host ?? "?"))" }

    /// The `Keyway-Signature` value for `body` sent at `timestamp` (unix seconds).
    static func signature(body: Data, timestamp: Int64, secret: SymmetricKey) -> String {
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: secret)
        return "t=\(timestamp),v1=\(Hex.encode(mac))"
    }

    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        let body: Data
        do {
            body = try JSONEncoder().encode(
                Payload(
                    id: message.id, channel: message.channel.rawValue, to: message.recipient,
                    subject: message.subject, body: message.body.revealed,
                    createdAt: WireCoding.formatTimestamp(message.createdAt)))
        } catch {
            return .permanent("the message could not be encoded")
        }
        let timestamp = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: Self.idempotencyKeyHeader, value: message.idempotencyKey)
        request.headers.add(
            name: Self.signatureHeader, value: Self.signature(body: body, timestamp: timestamp, secret: secret.revealed))
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: UInt
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            status = response.status.code
            // Drained and dropped: a receiver's answer is not logged.
            _ = try? await response.body.collect(upTo: Self.maximumResponseSize)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout
            || error == .connectTimeout
        {
            return .retryable("the webhook did not answer in time")
        } catch {
            return .retryable("the webhook could not be reached (\(String(describing: type(of: error))))")
        }
        logger.debug("webhook answered", metadata: ["delivery": "\(message.id)", "status": "\(status)"])
        return Self.outcome(status: status)
    }

    /// How an HTTP status settles an attempt.
    static func outcome(status: UInt) -> DeliveryOutcome {
        switch status {
        case 200...299: .delivered
        case 408, 429: .retryable("the webhook answered HTTP \(status)")
        case 500...599: .retryable("the webhook answered HTTP \(status)")
        default: .permanent("the webhook answered HTTP \(status)")
        }
    }
}
