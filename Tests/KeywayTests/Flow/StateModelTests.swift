#if canImport(Observation)
    import Foundation
    import Testing

    @testable import Keyway

    @Suite("The observable state model")
    struct StateModelTests {
        @MainActor
        @Test func aModelThatGoesAwayEndsItsSubscription() async throws {
            let store = KeywayStateStore(clock: SystemKeywayClock())
            var model: KeywayStateModel? = KeywayStateModel(store: store)
            #expect(store.subscriberCount == 1)
            #expect(model?.auth.isAuthenticated == false)
            // The model follows the store: its task is running and waits for the next change.
            var signedIn = KeywayState()
            signedIn.auth.isAuthenticated = true
            store.publish(signedIn, accessTokenExpiresAt: nil)
            let followed = ContinuousClock.now + .seconds(30)
            while model?.auth.isAuthenticated != true, ContinuousClock.now < followed { await Task.yield() }
            #expect(model?.auth.isAuthenticated == true)
            model = nil
            // The cancelled subscription is removed as its task ends: wait for that, not a time.
            let deadline = ContinuousClock.now + .seconds(30)
            while store.subscriberCount > 0, ContinuousClock.now < deadline { await Task.yield() }
            #expect(store.subscriberCount == 0)
            #expect(model == nil)
        }
    }
#endif
