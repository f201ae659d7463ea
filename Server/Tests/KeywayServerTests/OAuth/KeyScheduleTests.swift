import Foundation
import Testing

@testable import KeywayServer

@Suite("Signing key schedule")
struct KeyScheduleTests {
    static func key(
        _ kid: String, activates: Int64, retired: Int64? = nil, publishedUntil: Int64? = nil
    ) -> KeyRepository.StoredSigningKey {
        .init(
            kid: kid, algorithm: "ES256", privateKey: "", createdAt: 0, activatesAt: activates, retiredAt: retired,
            publishUntil: publishedUntil)
    }

    @Test func exactlyOneKeySignsAtEveryMomentOfARotation() {
        // K1 from 0; K2 announced at 100, signing from 700; K1 published until 700 + 4000.
        let schedule = KeySchedule([
            Self.key("K1", activates: 0, retired: 700, publishedUntil: 4_700), Self.key("K2", activates: 700),
        ])
        for now: Int64 in [0, 100, 699] {
            #expect(schedule.signing(at: now)?.kid == "K1", "\(now)")
            #expect(schedule.published(at: now).map(\.kid) == ["K1", "K2"])
            #expect(schedule.pending(at: now)?.kid == "K2")
        }
        for now: Int64 in [700, 701, 4_699] {
            #expect(schedule.signing(at: now)?.kid == "K2", "\(now)")
            #expect(schedule.published(at: now).map(\.kid) == ["K1", "K2"])
            #expect(schedule.pending(at: now) == nil)
        }
        #expect(schedule.published(at: 4_700).map(\.kid) == ["K2"])
        #expect(schedule.signing(at: 1_000_000)?.kid == "K2")
        #expect(schedule.nextChange(after: 100) == 700)
        #expect(schedule.nextChange(after: 700) == 4_700)
        #expect(schedule.nextChange(after: 4_700) == nil)
    }

    @Test func aKeyFromBeforeRotationSignsFromItsCreationAndNothingSignsBeforeTheFirst() {
        let schedule = KeySchedule([Self.key("K1", activates: 50)])
        #expect(schedule.signing(at: 49) == nil)
        #expect(schedule.signing(at: 50)?.kid == "K1")
        #expect(schedule.published(at: 0).map(\.kid) == ["K1"])
    }
}
