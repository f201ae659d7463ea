import Foundation
import HTTPTypes
import Hummingbird
import KeywayServer
import KeywayTestSupport
import Logging
import NIOCore

/// A webhook endpoint on loopback for the delivery tests: answers from a script (a status, or a
/// delay first) and records what arrived; ``signaturesAreValid()`` checks every recorded
/// `Keyway-Signature` with an independent implementation (Python's `hmac`).
final class WebhookReceiver: ScopedTestServer, @unchecked Sendable {
    // @unchecked: `script`, `received`, `server` and `boundPort` are only touched under `lock`.
    struct Reply: Sendable {
        var status: Int
        var delay: Duration = .zero
    }

    struct Received: Sendable {
        var idempotencyKey: String?
        var signature: String?
        var contentType: String?
        var body: Data
        var answered: Int
    }

    private let lock = NSLock()
    private var script: [Reply] = []
    private var received: [Received] = []
    private var server: LoopbackHTTPServer?
    private let secret: String
    private var boundPort = 0
    /// The bound port, once started.
    var port: Int { lock.withLock { boundPort } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/hook")! }
    var requests: [Received] { lock.withLock { received } }

    init(secret: String) {
        self.secret = secret
    }

    /// Replies for the next requests, in order; after them every request gets 200.
    func answer(_ replies: Reply...) {
        lock.withLock { script.append(contentsOf: replies) }
    }

    /// Starts serving; answers `self`, so it can be handed to `withTestServer`.
    @discardableResult
    func start() async throws -> Self {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            // Recorded on arrival: a request the sender gave up on still counts.
            let (index, reply) = self.lock.withLock { () -> (Int, Reply) in
                self.received.append(
                    Received(
                        idempotencyKey: request.headers[HTTPField.Name("Keyway-Idempotency-Key")!],
                        signature: request.headers[HTTPField.Name("Keyway-Signature")!],
                        contentType: request.headers[.contentType], body: body, answered: 0))
                return (self.received.count - 1, self.script.isEmpty ? Reply(status: 200) : self.script.removeFirst())
            }
            if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
            self.lock.withLock { self.received[index].answered = reply.status }
            let status = reply.status
            return Response(status: HTTPResponse.Status(code: status))
        }
        let running = try await LoopbackHTTPServer.start(router, label: "webhook-receiver")
        lock.withLock {
            server = running
            boundPort = running.port
        }
        return self
    }

    func stop() async {
        await lock.withLock { server }?.stop()
    }

    /// Whether every request so far carried a valid signature, checked by Python.
    func signaturesAreValid() async throws -> Bool {
        let checks = requests.map { [$0.signature ?? "", $0.body.base64EncodedString()] }
        return try await Self.verify(checks, secret: secret)
    }

    /// Checks `[signature header, base64 body]` pairs the way a receiver would, in Python: true
    /// when all are valid.
    static func verify(_ checks: [[String]], secret: String) async throws -> Bool {
        let script = """
            import base64, hashlib, hmac, json, sys
            valid = True
            for header, body in json.load(sys.stdin):
                fields = dict(part.split("=", 1) for part in header.split(","))
                signed = fields["t"].encode() + b"." + base64.b64decode(body)
                expected = hmac.new(sys.argv[1].encode(), signed, hashlib.sha256).hexdigest()
                valid = valid and hmac.compare_digest(expected, fields["v1"])
            print("valid" if valid else "invalid")
            """
        let input = try JSONEncoder().encode(checks)
        let result = try await ChildProcess.run("python3", ["-c", script, secret], input: input)
        return String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            == "valid"
    }
}
