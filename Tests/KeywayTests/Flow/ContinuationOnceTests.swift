import Foundation
import Testing

@testable import Keyway
import KeywayProtocol

/// A continuation several resumers race for (a system callback, a failed start, a cancellation)
/// is resumed once: the first wins, the others do nothing instead of trapping.
@Suite("Resuming a continuation once")
struct ContinuationOnceTests {
    @Test func theFirstResumerWinsAndTheOthersDoNothing() async throws {
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            let once = ContinuationOnce(continuation)
            #expect(once.resume(with: .success(1)))
            #expect(!once.resume(with: .success(2)))
            #expect(!once.resume(with: .failure(CancellationError())))
        }
        #expect(value == 1)
    }

    @Test func racingResumersResumeItOnce() async throws {
        for _ in 0..<50 {
            let wins = LockedState(0)
            let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                let once = ContinuationOnce(continuation)
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    if once.resume(with: .success(index)) { wins.withLock { $0 += 1 } }
                }
            }
            #expect((0..<8).contains(value))
            #expect(wins.withLock { $0 } == 1)
        }
    }
}
