import Foundation
import Testing

@testable import KeywayServer

/// What the browser's return from a provider leaves for the flow: the identity, or the refusal
/// that becomes the flow's `federation_failed`.
@Suite("A provider's answer kept for the flow")
struct UpstreamOutcomeTests {
    @Test func anIdentityComesBackAsItWas() throws {
        let identity = UpstreamIdentity(
            issuer: "https://idp.example", subject: "u1", email: "ada@example.com", emailVerified: true, name: "Ada",
            picture: nil)
        #expect(try UpstreamOutcome.identity(try UpstreamOutcome.stored(identity)) == identity)
    }

    @Test func aRefusalComesBackAsTheFlowsProblem() throws {
        let stored = try UpstreamOutcome.stored(refusal: "The ID token was issued to another client.")
        do {
            _ = try UpstreamOutcome.identity(stored)
            Issue.record("a refusal read as an identity")
        } catch let problem as FlowProblem {
            #expect(problem.problem.code == .federationFailed)
            #expect(problem.problem.detail == "The ID token was issued to another client.")
        }
        // Bounded: a provider's sentence cannot grow the row without limit.
        let long = try UpstreamOutcome.stored(refusal: String(repeating: "x", count: 5000))
        #expect(long.count < 600)
    }
}
