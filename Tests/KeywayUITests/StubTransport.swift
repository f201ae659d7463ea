import Foundation
import Keyway
import KeywayProtocol

/// A server for the model's tests: answers each `METHOD /path` from a queue (the last answer
/// repeating) and records the requests.
final class StubTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `answers` and `recorded` are only touched under `lock`.
    private let lock = NSLock()
    private var answers: [String: [TransportResponse]] = [:]
    private var recorded: [TransportRequest] = []

    /// Queues a step document for `METHOD /path`.
    func on(_ route: String, step json: String) {
        on(route, TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(json.utf8)))
    }

    /// Queues a problem document for `METHOD /path`.
    func on(_ route: String, problem code: String, status: Int, action: String) {
        let json = """
            {"type":"urn:keyway:problem:\(code)","title":"Refused","status":\(status),"detail":"Refused: \(code).",
             "code":"\(code)","action":"\(action)","retryable":false,"traceId":"trace-problem"}
            """
        on(route, TransportResponse(status: status, headers: ["Content-Type": "application/problem+json"], body: Data(json.utf8)))
    }

    /// Queues `response` for `METHOD /path`.
    func on(_ route: String, _ response: TransportResponse) {
        lock.withLock { answers[route, default: []].append(response) }
    }

    /// The requests sent to `METHOD /path`, in order.
    func requests(to route: String) -> [TransportRequest] {
        lock.withLock { recorded }.filter { "\($0.method) \($0.url.path)" == route }
    }

    /// The JSON bodies sent to `METHOD /path`, in order.
    func bodies(to route: String) -> [[String: String]] {
        lock.withLock { recorded }
            .filter { "\($0.method) \($0.url.path)" == route }
            .map { request in
                request.body.flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
            }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let route = "\(request.method) \(request.url.path)"
        return lock.withLock {
            recorded.append(request)
            guard var queue = answers[route], !queue.isEmpty else {
                return TransportResponse(status: 404, body: Data("no route \(route)".utf8))
            }
            let response = queue.count > 1 ? queue.removeFirst() : queue[0]
            answers[route] = queue
            return response
        }
    }

    /// An SDK that talks to this server.
    func keyway() throws -> KeywayClient {
        try KeywayClient(
            configID: "cfg_test", baseURL: URL(string: "https://auth.example.com")!,
            options: KeywayOptions(transport: self))
    }
}
