import Foundation
@testable import Keyway
import KeywayTestSupport
import Testing

/// Clients that open connections and send nothing, or half a request and then nothing, hold no
/// more than a socket each, and only until the idle timeout: they cannot stop real users. The
/// time limits catch a server that stops answering; they are wide because these tests run beside
/// the whole suite, on a machine that may be busy with other work.
@Suite("Slow clients")
struct SlowClientTests {
    @Test(.timeLimit(.minutes(10)))
    func fiveHundredSlowConnectionsCannotStopASignInAndAreClosedWhenIdle() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, idleTimeout: 3)) { server in
            var slow: [IdleConnection] = []
            for index in 0..<500 {
                // Half of them send nothing, half the start of a request head.
                let prefix = index.isMultiple(of: 2) ? "" : "POST /v1/flows HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
                slow.append(try await IdleConnection.open(port: server.port, sending: prefix))
            }
            // A real sign-in goes through meanwhile.
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "busy@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "busy@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
            // The server closed every slow connection once it had been idle for its timeout.
            for connection in slow { #expect(await connection.closed.value) }
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aRequestAnsweredBeforeItsBodyIsReadDoesNotLeaveTheConnectionOpen() async throws {
        // An idle timeout long enough that a busy machine answers before it, as the answer is
        // what the test reads.
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken, idleTimeout: 15)) { server in
            // A body announced but only begun: the admin check answers 401 without reading it, and
            // the connection is closed once idle instead of staying half-open with the body unread.
            let partial =
                "POST /admin/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100000\r\n\r\n{\"name\": \"x"
            let answer = try await IdleConnection.exchange(port: server.port, sending: partial)
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer)")
            #expect(try await server.request("GET", "/health").status == 200)
        }
    }
}
