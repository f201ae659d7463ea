import Foundation
import KeywayPowerAuthClient

/// A ``SecureStorage`` in memory that keeps every value written, in order.
actor RecordingStorage: SecureStorage {
    private var entries: [String: Data] = [:]
    private(set) var writes: [(key: String, data: Data)] = []

    func read(key: String) async throws(SecureStorageError) -> Data? { entries[key] }

    func write(key: String, data: Data) async throws(SecureStorageError) {
        // A suspension inside the write: a lock that does not hold would let others in here.
        await Task.yield()
        entries[key] = data
        writes.append((key, data))
    }

    func delete(key: String) async throws(SecureStorageError) { entries[key] = nil }

    func keys() -> [String] { entries.keys.sorted() }

    func allBytes() -> Data { entries.values.reduce(into: Data()) { $0.append($1) } }
}

/// Reads fields of a stored activation record, as JSON.
enum StoredRecord {
    static func field(_ name: String, in data: Data) -> Any? {
        (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?[name]
    }

    static func counterData(_ data: Data) -> Data? {
        // JSONEncoder writes Data as Base64.
        (field("counterData", in: data) as? String).flatMap { Data(base64Encoded: $0) }
    }
}

/// A transport that fails the test's expectation when used: for calls that must refuse before
/// any request.
struct NoNetwork: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw KeywayError.networkFailure("no request was expected: \(request.method) \(request.url.path)")
    }
}
