import Foundation

/// What the browser's return from a provider left for the flow (a federation state's `outcome`):
/// the verified identity, or the reason the answer was refused. Either way the browser goes on to
/// the app or the hosted pages, and the flow's `callback` takes it from there — a refusal becomes
/// the flow's `federation_failed` problem, shown as a page of the hosted sign-in rather than a
/// bare `502` in the browser.
enum UpstreamOutcome {
    /// The stored form of a refusal: `{"refused": "<the problem's sentence>"}`.
    private struct Refusal: Codable {
        var refused: String
    }

    /// The stored form of a verified identity (its JSON, as it always was).
    static func stored(_ identity: UpstreamIdentity) throws -> String {
        String(decoding: try JSONEncoder().encode(identity), as: UTF8.self)
    }

    /// The stored form of a refusal whose sentence is `detail` (at most 500 characters).
    static func stored(refusal detail: String) throws -> String {
        String(decoding: try JSONEncoder().encode(Refusal(refused: String(detail.prefix(500)))), as: UTF8.self)
    }

    /// The identity `stored` holds.
    ///
    /// - Throws: ``FlowProblem/federationFailed(_:)`` with the reason, when it holds a refusal.
    static func identity(_ stored: String) throws -> UpstreamIdentity {
        let data = Data(stored.utf8)
        if let refusal = try? JSONDecoder().decode(Refusal.self, from: data) {
            throw FlowProblem.federationFailed(refusal.refused)
        }
        return try JSONDecoder().decode(UpstreamIdentity.self, from: data)
    }
}
