import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// The real transport, keeping every request it was given.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `requests` is only touched under `lock`.
    private let lock = NSLock()
    private var sent: [TransportRequest] = []
    private let inner = URLSessionTransport()

    var requests: [TransportRequest] { lock.withLock { sent } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { sent.append(request) }
        return try await inner.send(request)
    }
}

@Suite("SDK logging and request interceptors")
struct LoggingTests {
    func signIn(_ server: TestServer, options: KeywayOptions, email: String) async throws -> (TokenSet, String) {
        let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: options)
        await keyway.flow.start(identifier: email)
        let code = try await server.latestCode(to: email)
        await keyway.flow.submitCode(code)
        let completion = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
        _ = try await keyway.tokens.refresh(refreshToken: try #require(tokens.response.refreshToken))
        return (tokens, code)
    }

    @Test func secretsAreMaskedByDefaultAndLinesAreTaggedAndLeveled() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let sink = MemoryLogSink()
            let (tokens, code) = try await signIn(
                server, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, logging: KeywayLogging(level: .debug, sinks: [sink])),
                email: "logs@example.com")
            let records = sink.records
            #expect(Set(records.map(\.category)).isSuperset(of: ["http", "flow", "oauth"]))
            #expect(records.contains { $0.metadata.values.contains { $0.hasPrefix("•••(") } })
            let secrets = [code, tokens.response.accessToken.revealed, tokens.response.refreshToken!.revealed]
            for record in records {
                let line = record.formatted
                for secret in secrets { #expect(!line.contains(secret), "\(line)") }
                #expect(!line.contains(KeywayLogging.unmaskedWarning))
            }

            // Only the chosen areas and levels are written.
            let flowOnly = MemoryLogSink()
            _ = try await signIn(
                server, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, logging: KeywayLogging(level: .info, categories: ["flow"], sinks: [flowOnly])),
                email: "flow-only@example.com")
            #expect(!flowOnly.records.isEmpty)
            #expect(flowOnly.records.allSatisfy { $0.category == "flow" && $0.level >= .info })
            let quiet = MemoryLogSink()
            _ = try await signIn(
                server, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, logging: KeywayLogging(level: .error, sinks: [quiet])),
                email: "quiet@example.com")
            #expect(quiet.records.isEmpty)
        }
    }

    @Test func unmaskingPutsAWarningOnEveryLine() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let sink = MemoryLogSink()
            let (tokens, _) = try await signIn(
                server,
                options: KeywayOptions(
                    completedSignIns: .handOver, clock: clock, logging: KeywayLogging(level: .debug, sinks: [sink], masksSensitiveValues: false)),
                email: "unmasked@example.com")
            #expect(!sink.records.isEmpty)
            #expect(sink.records.allSatisfy { $0.message.hasPrefix(KeywayLogging.unmaskedWarning) })
            #expect(sink.records.contains { $0.formatted.contains(tokens.response.accessToken.revealed) })
        }
    }

    @Test func interceptorsAddHeadersToEveryRequestButCannotReplaceTheSDKs() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let transport = RecordingTransport()
            let interceptor = RequestInterceptor { request in
                ["X-App-Attestation": "attest-\(request.method)", "X-Keyway-Config-Id": "cfg_forged", "Authorization": "Bearer forged"]
            }
            _ = try await signIn(
                server, options: KeywayOptions(completedSignIns: .handOver, transport: transport, clock: clock, requestInterceptors: [interceptor]),
                email: "intercept@example.com")
            let requests = transport.requests
            #expect(requests.count >= 5)
            for request in requests {
                #expect(request.headers["X-App-Attestation"] == "attest-\(request.method)")
                #expect(request.headers["X-Keyway-Config-Id"] != "cfg_forged")
                #expect(request.headers["Authorization"] != "Bearer forged")
                #expect(request.headers.keys.filter { $0.lowercased() == "x-keyway-config-id" }.count <= 1)
            }
            // The SDK's own headers went out unchanged: the flow requests carry the real config ID.
            #expect(requests.contains { $0.headers["X-Keyway-Config-Id"] == TestServer.configId })
        }
    }
}
