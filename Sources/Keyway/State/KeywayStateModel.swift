#if canImport(Observation)
    import Observation

    /// ``KeywayState`` as an `@Observable` model for SwiftUI: views that read ``auth`` or
    /// ``user`` update when they change.
    ///
    /// Make it once, where the session lives (not in a view's initializer, which SwiftUI calls
    /// again and again), and hand it to the views:
    ///
    /// ```swift
    /// let model = KeywayStateModel(store: session.state)
    /// // in a view holding `model`:
    /// var body: some View { model.auth.isAuthenticated ? AnyView(Home()) : AnyView(SignIn()) }
    /// ```
    @MainActor
    @Observable
    public final class KeywayStateModel {
        /// The authentication half of the store's state, as last delivered.
        public private(set) var auth: AuthState
        /// The user half of the store's state, as last delivered.
        public private(set) var user: UserState
        /// Follows the store; cancelled when the model goes away, which ends its subscription.
        @ObservationIgnored private nonisolated(unsafe) var subscription: Task<Void, Never>?

        /// A model following `store` from its current state on.
        ///
        /// - Parameter store: The store to follow (``KeywaySession/state``).
        public init(store: KeywayStateStore) {
            let snapshot = store.snapshot
            auth = snapshot.auth
            user = snapshot.user
            let updates = store.subscribe { $0 }
            subscription = Task { [weak self] in
                for await state in updates {
                    guard let self else { return }
                    if self.auth != state.auth { self.auth = state.auth }
                    if self.user != state.user { self.user = state.user }
                }
            }
        }

        deinit {
            // Only `deinit` reads `subscription` after `init`: no other access can race it.
            subscription?.cancel()
        }
    }
#endif
