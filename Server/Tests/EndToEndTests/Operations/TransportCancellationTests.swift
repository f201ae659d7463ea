import Foundation
@testable import Keyway
import KeywayTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The SDK's transport: a request cancelled while its answer arrives never hangs")
struct TransportCancellationTests {
    /// Cancels requests at every moment of their life, most of them while the answer is
    /// arriving: FoundationNetworking's own `data(for:)` can deadlock there (the cancellation and
    /// the answer each wait for a lock the other holds), so the suite's time limit is the check:
    /// a deadlock never ends, while the 2,000 rounds take seconds alone and a few minutes beside
    /// the whole suite on a machine a release build keeps busy.
    @Test(.timeLimit(.minutes(10)))
    func requestsCancelledAtAnyMomentEndEitherWay() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let transport = URLSessionTransport()
            let request = TransportRequest(
                method: "GET", url: server.baseURL.appendingPathComponent(".well-known/jwks.json"), headers: [:], body: nil)
            var answered = 0
            var cancelled = 0
            for round in 0..<2000 {
                let task = Task { try await transport.send(request) }
                // From at once to a little after a loopback answer usually arrives.
                let pause = (round % 30) * 20
                if pause > 0 { try await Task.sleep(for: .microseconds(pause)) }
                task.cancel()
                switch await task.result {
                case .success(let response):
                    #expect(response.status == 200)
                    answered += 1
                case .failure:
                    cancelled += 1
                }
            }
            #expect(answered + cancelled == 2000)
        }
    }
}
