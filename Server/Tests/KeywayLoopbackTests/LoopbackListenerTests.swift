import Foundation
import KeywayLoopback
import Testing

@Suite("Loopback listener for browser callbacks")
struct LoopbackListenerTests {
    let page: @Sendable (URL) -> String = { _ in "<p>You can close this window.</p>" }

    /// Runs `body` off the cooperative pool (the client blocks).
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test func bindsALoopbackPortTheSystemPicks() throws {
        let listener = try LoopbackListener()
        #expect(listener.port > 0)
        #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(listener.port)/callback")
        let other = try LoopbackListener(path: "/cb")
        #expect(other.port != listener.port)
        #expect(other.redirectURI.path == "/cb")
    }

    @Test func theCallbackReachesTheWaitingCall() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10), page: page)
        let answer = try await blocking { try RawLoopbackClient.get("/callback?code=ac_1&state=st%201", port: port) }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.contains("Content-Type: text/html; charset=utf-8"))
        #expect(answer.hasSuffix("<p>You can close this window.</p>"))
        let url = try await callback
        #expect(url.absoluteString == "http://127.0.0.1:\(port)/callback?code=ac_1&state=st%201")
    }

    @Test func otherPathsAreNotFoundAndTheWaitGoesOn() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10), page: page)
        let favicon = try await blocking { try RawLoopbackClient.get("/favicon.ico", port: port) }
        #expect(favicon.hasPrefix("HTTP/1.1 404 "))
        let garbage = try await blocking { () throws -> String in
            let client = try RawLoopbackClient(port: port)
            defer { client.hangUp() }
            client.send("NONSENSE\r\n\r\n")
            return client.receiveAll()
        }
        #expect(garbage.hasPrefix("HTTP/1.1 404 "))
        _ = try await blocking { try RawLoopbackClient.get("/callback?code=ac_2", port: port) }
        #expect(try await callback.query == "code=ac_2")
    }

    @Test func anIdleConnectionDoesNotHoldTheCallbackUp() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10), page: page)
        // A browser's speculative pre-connection: connected, silent.
        let idle = try RawLoopbackClient(port: port)
        defer { idle.hangUp() }
        idle.send("GET /callb")
        let answer = try await blocking { try RawLoopbackClient.get("/callback?code=ac_3", port: port) }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        #expect(try await callback.query == "code=ac_3")
    }

    @Test func aSecondRequestIsIgnored() async throws {
        let listener = try LoopbackListener()
        let port = listener.port
        async let callback = listener.waitForCallback(timeout: .seconds(10), page: page)
        _ = try await blocking { try RawLoopbackClient.get("/callback?code=first", port: port) }
        #expect(try await callback.query == "code=first")
        // The listener is closed: the second request is refused or never answered.
        let second = try? await blocking { try RawLoopbackClient.get("/callback?code=second", port: port) }
        #expect(second == nil || second == "")
        await #expect(throws: LoopbackListenerError.closed) {
            try await listener.waitForCallback(timeout: .seconds(1), page: page)
        }
    }

    @Test func theWaitTimesOut() async throws {
        let listener = try LoopbackListener()
        let started = ContinuousClock.now
        await #expect(throws: LoopbackListenerError.timedOut(seconds: 0)) {
            try await listener.waitForCallback(timeout: .milliseconds(300), page: page)
        }
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func cancellingTheTaskEndsTheWait() async throws {
        let listener = try LoopbackListener()
        let page = self.page
        let waiting = Task { try await listener.waitForCallback(timeout: .seconds(30), page: page) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: LoopbackListenerError.cancelled) { try await waiting.value }
    }
}
