import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import KeywayTestSupport
import Logging
import NIOCore

/// An SMS provider's webhook on loopback: answers 200, or 500 while `failing`; records every
/// request and checks its `Keyway-Signature` (HMAC-SHA256 over `t.body`) with the shared secret.
final class SMSGateway: ScopedTestServer, @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `lock`.
    struct Received: Sendable {
        var to: String
        var body: String
        var idempotencyKey: String
        var signatureValid: Bool
        var answered: Int
    }

    let secret = "sms-gateway-shared-secret-0123456789abcdef"
    private let lock = NSLock()
    private var isFailing = false
    private var failuresLeft = 0
    private var received: [Received] = []
    private var server: LoopbackHTTPServer?
    private var boundPort = 0
    /// The bound port, once started.
    var port: Int { lock.withLock { boundPort } }

    var url: String { "http://127.0.0.1:\(port)/sms" }
    var requests: [Received] { lock.withLock { received } }

    /// Answers 500 from now on (`true`) or 200 (`false`).
    func fail(_ failing: Bool) {
        lock.withLock { isFailing = failing }
    }

    /// Answers 500 to the next `count` requests only.
    func failNext(_ count: Int) {
        lock.withLock { failuresLeft = count }
    }

    /// The six-digit code of the last message delivered (answered 200) to `phone`.
    func lastCode(to phone: String) throws -> String {
        guard let message = requests.last(where: { $0.to == phone && $0.answered == 200 }),
            let range = message.body.range(of: "[0-9]{6}", options: .regularExpression)
        else { throw TestFailure("No SMS reached \(phone).") }
        return String(message.body[range])
    }

    /// Starts serving; answers `self`, so it can be handed to `withTestServer`.
    @discardableResult
    func start() async throws -> Self {
        let router = Router()
        let secret = SymmetricKey(data: Data(secret.utf8))
        router.post("sms") { request, _ -> Response in
            let raw = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            let json = (try? JSONSerialization.jsonObject(with: raw)) as? [String: Any] ?? [:]
            let signature = request.headers[HTTPField.Name("Keyway-Signature")!] ?? ""
            var valid = false
            let parts = Dictionary(
                signature.split(separator: ",").compactMap { part -> (String, String)? in
                    let pair = part.split(separator: "=", maxSplits: 1)
                    return pair.count == 2 ? (String(pair[0]), String(pair[1])) : nil
                }, uniquingKeysWith: { first, _ in first })
            if let timestamp = parts["t"], let mac = parts["v1"] {
                let expected = HMAC<SHA256>.authenticationCode(for: Data(timestamp.utf8) + Data(".".utf8) + raw, using: secret)
                valid = expected.map { String(format: "%02x", $0) }.joined() == mac
            }
            let status = self.lock.withLock { () -> Int in
                let status = self.isFailing || self.failuresLeft > 0 ? 500 : 200
                if self.failuresLeft > 0 { self.failuresLeft -= 1 }
                self.received.append(
                    Received(
                        to: json["to"] as? String ?? "", body: json["body"] as? String ?? "",
                        idempotencyKey: request.headers[HTTPField.Name("Keyway-Idempotency-Key")!] ?? "",
                        signatureValid: valid, answered: status))
                return status
            }
            return Response(status: HTTPResponse.Status(code: status))
        }
        let running = try await LoopbackHTTPServer.start(router, label: "sms-gateway")
        lock.withLock {
            server = running
            boundPort = running.port
        }
        return self
    }

    func stop() async {
        await lock.withLock { server }?.stop()
    }
}
