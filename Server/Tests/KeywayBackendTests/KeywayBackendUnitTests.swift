import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Testing

@testable import KeywayBackend

/// The backend kit's own logic, without a server: its activation cache, the encryption scopes,
/// and how it reads the server's verdict on a signature. (Everything it asks the server is
/// tested end to end in `EndToEndTests/Backend` and `EndToEndTests/PowerAuth`.)
@Suite("KeywayBackend, unit by unit")
struct KeywayBackendUnitTests {
    static func info(_ id: String, status: String = "ACTIVE") -> PowerAuthActivationInfo {
        PowerAuthActivationInfo(
            activationId: id, userId: "usr_1", applicationId: "app_1", status: status, devicePublicKey: "d",
            serverPublicKey: "s")
    }

    @Test func theActivationCacheKeepsAnEntryForItsLifetimeOnly() async {
        let cache = ActivationCache()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        await cache.put(Self.info("act_1"), now: start, lifetime: 5)
        #expect(await cache.get("act_1", now: start.addingTimeInterval(4.9), lifetime: 5)?.activationId == "act_1")
        #expect(await cache.get("act_1", now: start.addingTimeInterval(5), lifetime: 5) == nil, "Expired at its lifetime.")
        #expect(await cache.get("act_1", now: start, lifetime: 5) == nil, "An expired entry is dropped.")
        #expect(await cache.get("act_2", now: start, lifetime: 5) == nil)
    }

    @Test func aClockThatGoesBackDropsTheEntryAndForgetRemovesIt() async {
        let cache = ActivationCache()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        await cache.put(Self.info("act_1"), now: start, lifetime: 5)
        #expect(await cache.get("act_1", now: start.addingTimeInterval(-1), lifetime: 5) == nil)
        await cache.put(Self.info("act_1"), now: start, lifetime: 5)
        await cache.forget("act_1")
        #expect(await cache.get("act_1", now: start, lifetime: 5) == nil)
    }

    @Test func theCacheStaysBoundedAndKeepsWhatIsStillFresh() async {
        let cache = ActivationCache()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<10_000 {
            await cache.put(Self.info("old_\(index)"), now: start, lifetime: 5)
        }
        // Full: the next entry first drops the expired ones.
        let later = start.addingTimeInterval(10)
        await cache.put(Self.info("act_new"), now: later, lifetime: 5)
        #expect(await cache.get("act_new", now: later, lifetime: 5) != nil)
        #expect(await cache.get("old_0", now: start, lifetime: 5) == nil)
    }

    @Test func eachScopeSealsWithItsGenericSharedInfo() throws {
        #expect(PowerAuthEncryptionScope.application.sharedInfo1 == .applicationScopeGeneric)
        #expect(PowerAuthEncryptionScope.activation.sharedInfo1 == .activationScopeGeneric)
        let decoded = try JSONDecoder().decode([PowerAuthEncryptionScope].self, from: Data(#"["application","activation"]"#.utf8))
        #expect(decoded == [.application, .activation])
    }

    @Test func theServersVerdictIsReadWithItsFactorsAndRefusal() throws {
        let accepted = try JSONDecoder().decode(
            SignatureVerificationResponse.self,
            from: Data(#"{"valid":true,"activationId":"act_1","userId":"usr_1","factors":"possession_knowledge","status":"ACTIVE","remainingAttempts":5}"#.utf8)
        ).verification
        #expect(accepted.isValid)
        #expect(accepted.factors == [.possession, .knowledge])
        #expect(accepted.userId == "usr_1")
        #expect(accepted.refusal == nil)

        let refused = try JSONDecoder().decode(
            SignatureVerificationResponse.self,
            from: Data(#"{"valid":false,"error":{"code":"invalid_signature","message":"The signature does not verify."}}"#.utf8)
        ).verification
        #expect(!refused.isValid)
        #expect(refused.factors.isEmpty)
        #expect(refused.refusal?.code == "invalid_signature")
    }
}
