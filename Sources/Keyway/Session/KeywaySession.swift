import Foundation
import KeywayProtocol

/// The signed-in accounts of a ``KeywayClient`` (its ``KeywayClient/session``), kept in
/// ``KeywayOptions/storage``, with a valid access token whenever the app asks for one. Every
/// sign-in the client completes is saved here.
///
/// ```swift
/// try await keyway.signIn(withCodeSentTo: "ada@example.com") { sent in await askUser(sent) }   // saved here
/// let token = try await keyway.session.accessToken()   // refreshed when about to expire; nil when signed out
/// ```
///
/// - Several accounts live side by side, each stored as one entry (tokens and user metadata
///   written together): ``save(_:)`` adds or replaces an account and makes it current,
///   ``switchAccount(to:)`` changes the current one, ``signOut(account:scope:)`` removes one
///   without touching the others. Calls without an `account` use the current account.
/// - Concurrent callers share one refresh per account (single flight).
/// - Refresh tokens rotate; the new token pair is written to storage, replacing the old pair in one
///   write, before the call returns. If the write fails the server's reuse grace period lets the
///   next call refresh with the old token again.
/// - Network failures are retried with exponential backoff and jitter before
///   ``SessionError/networkConnectionFailure(_:)`` is thrown; the session is kept.
/// - A refused refresh token (revoked, expired, reused) clears the session:
///   ``SessionError/invalidRefreshToken(_:)``.
/// - With a storage that offers ``CrossProcessLocking`` (``FileSecureStorage`` does), the refresh
///   runs under that lock and first re-reads storage: when another process has refreshed
///   meanwhile, its result is used and no second refresh is sent.
/// - Unavailable storage (a locked device) is ``SessionError/storageUnavailable(_:)`` and never
///   signs the user out.
public actor KeywaySession {
    /// How network failures of a refresh are retried.
    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included.
        public var maxAttempts: Int
        /// The delay before the second attempt; each later delay doubles, with ±50 % jitter.
        public var baseDelay: TimeInterval
        /// The longest delay between attempts.
        public var maxDelay: TimeInterval

        /// A retry policy; negative values count as `0`, and `maxAttempts` as at least `1`.
        ///
        /// - Parameters:
        ///   - maxAttempts: Attempts in all, the first included.
        ///   - baseDelay: The delay before the second attempt, in seconds.
        ///   - maxDelay: The longest delay between attempts, in seconds.
        public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
            self.maxAttempts = max(1, maxAttempts)
            self.baseDelay = max(0, baseDelay)
            self.maxDelay = max(0, maxDelay)
        }
    }

    /// The accounts of this application and which one is current, stored under ``indexKey``.
    private struct AccountIndex: Codable, Sendable {
        var current: String?
        var accounts: [String] = []
    }

    /// What the session uses of its SDK instance.
    let keyway: SessionClient
    let storage: any SecureStorage
    private let refreshSkew: TimeInterval
    private let retryPolicy: RetryPolicy
    private let refresher: Refresher?

    /// Refreshes through the app's backend instead of the token endpoint: given the stored
    /// refresh token, it returns the backend's token response (for applications whose tokens
    /// only the backend may refresh). Throw ``KeywayError/oauth(status:error:)`` with
    /// `invalid_grant` when the backend says the refresh token is no longer good.
    public typealias Refresher = @Sendable (Sensitive<String>) async throws -> TokenResponse

    /// How far ``signOut(account:scope:)`` reaches.
    public enum SignOutScope: Sendable {
        /// This device: the refresh token is revoked and the account's tokens deleted.
        case local
        /// Every device: all the user's sessions and refresh tokens are revoked at the server
        /// (`DELETE /v1/me/sessions`), then this device signs out.
        case allDevices
    }
    private var refreshTasks: [String: Task<StoredTokens, any Error>] = [:]
    private let notifierChannel: String?
    private let notifierId = UUID()
    private let pollTask = LockedState<Task<Void, Never>?>(nil)

    /// The observable authentication state of the current account: a snapshot, streams of
    /// selected parts, and an `@Observable` model (``KeywayStateModel``). It is loaded from
    /// storage (call ``reloadState()`` at launch), follows every change this session makes, and
    /// follows changes by other sessions of this process that share the storage. Changes made by
    /// another process (an app extension) arrive with `statePollInterval`, or at the next
    /// ``reloadState()``.
    public nonisolated let state: KeywayStateStore

    /// The signed-in user's profile, with client-side encryption of the fields the schema marks
    /// `encrypted` (see ``KeywayUserProfile``).
    public nonisolated var user: KeywayUserProfile { KeywayUserProfile(session: self, keyway: keyway) }

    /// The profile values last read or saved, per account, for ``state``.
    private var profiles: [String: [String: ProfileValue]] = [:]

    /// The storage key of an account's profile encryption key.
    ///
    /// - Parameter account: The user ID.
    /// - Returns: `keyway.profileKey.CONFIG_ID.ACCOUNT`.
    nonisolated func profileKeyStorageKey(account: String) -> String {
        "keyway.profileKey.\(keyway.configID).\(account)"
    }

    /// Keeps the profile for ``state``'s `user.data`.
    func remember(profile: [String: ProfileValue], account: String) async {
        profiles[account] = profile
        await reloadState()
    }

    /// The storage key of the "someone signed in on this device before" marker.
    nonisolated var previousSignInKey: String { "keyway.signedInBefore.\(keyway.configID)" }

    /// The storage key of the account list.
    nonisolated var indexKey: String { "keyway.accounts.\(keyway.configID)" }

    /// The storage key of one account's tokens and metadata.
    ///
    /// - Parameter account: The user ID.
    /// - Returns: `keyway.session.CONFIG_ID.ACCOUNT`.
    nonisolated func storageKey(account: String) -> String { "keyway.session.\(keyway.configID).\(account)" }

    /// A session of `keyway`'s application, kept in `storage`.
    ///
    /// - Parameters:
    ///   - keyway: The SDK instance that refreshes the tokens and verifies them.
    ///   - storage: Where the accounts' tokens are kept.
    ///   - refreshSkew: refresh when the access token expires within this many seconds.
    ///   - retryPolicy: How network failures and server errors (5xx) of a refresh are retried.
    ///   - statePollInterval: re-read storage this often to pick up changes made by another
    ///     process sharing it; `nil` (the default) does not poll.
    ///   - refresher: refresh through the app's backend (see ``Refresher``); `nil` refreshes at the
    ///     token endpoint (public applications).
    public init(
        keyway: KeywayClient, storage: any SecureStorage, refreshSkew: TimeInterval = 60,
        retryPolicy: RetryPolicy = RetryPolicy(), statePollInterval: Duration? = nil, refresher: Refresher? = nil
    ) {
        self.init(
            client: SessionClient(keyway), storage: storage, refreshSkew: refreshSkew, retryPolicy: retryPolicy,
            statePollInterval: statePollInterval, refresher: refresher)
    }

    /// A session of the client `client` describes (the client's own ``KeywayClient/session``).
    init(
        client keyway: SessionClient, storage: any SecureStorage, refreshSkew: TimeInterval = 60,
        retryPolicy: RetryPolicy = RetryPolicy(), statePollInterval: Duration? = nil, refresher: Refresher? = nil
    ) {
        self.refresher = refresher
        self.keyway = keyway
        self.storage = storage
        self.refreshSkew = max(0, refreshSkew)
        self.retryPolicy = retryPolicy
        self.state = KeywayStateStore(clock: keyway.options.clock)
        let channel = SessionChangeNotifier.channel(storage: storage, configId: keyway.configID)
        self.notifierChannel = channel
        if let channel {
            SessionChangeNotifier.shared.register(channel: channel, id: notifierId) { [weak self] in
                Task { await self?.reloadState() }
            }
        }
        if let statePollInterval {
            let task = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: statePollInterval)
                    guard let self else { return }
                    await self.reloadState()
                }
            }
            pollTask.withLock { $0 = task }
        }
    }

    deinit {
        pollTask.withLock { $0?.cancel() }
        if let notifierChannel { SessionChangeNotifier.shared.unregister(channel: notifierChannel, id: notifierId) }
    }

    // MARK: State

    /// Reads the current account from storage and publishes it to ``state``. Storage that is
    /// unavailable leaves the state as it was (apart from `isLoading`).
    public func reloadState() async {
        do {
            let previously = try await storage.read(key: previousSignInKey) != nil
            let current = try await entry()
            var auth = AuthState(hasPreviouslySignedIn: previously || current != nil)
            var user = UserState()
            if let current {
                auth.isAuthenticated = true
                auth.accessToken = current.accessToken
                auth.isVerifiedUser = current.emailVerified ?? false
                user.id = current.subject
                if let email = current.email { user.data["email"] = email }
                if let verified = current.emailVerified { user.data["emailVerified"] = String(verified) }
                for (name, value) in profiles[current.subject] ?? [:] where user.data[name] == nil {
                    switch value {
                    case .string(let string): user.data[name] = string
                    case .number(let number): user.data[name] = NumberText.decimal(number)
                    case .bool(let bool): user.data[name] = String(bool)
                    }
                }
            }
            auth.isLoading = !refreshTasks.isEmpty
            state.publish(KeywayState(auth: auth, user: user), accessTokenExpiresAt: current?.accessTokenExpiresAt)
        } catch {
            keyway.logger.log(.warning, .storage, "state not reloaded: \(error)")
            state.setStorageUnavailable(loading: !refreshTasks.isEmpty)
        }
    }

    /// After a change to storage: republish, and tell the other sessions sharing it.
    private func changed() async {
        await reloadState()
        if let notifierChannel { SessionChangeNotifier.shared.post(channel: notifierChannel, from: notifierId) }
    }

    // MARK: Accounts

    /// Stores the tokens of a completed sign-in as the account of its user (replacing that
    /// account's earlier tokens, leaving other accounts alone) and makes it the current account.
    ///
    /// - Parameter tokens: Verified tokens (``KeywayTokens/exchange(authCode:codeVerifier:)``).
    /// - Throws: ``SessionError/storageUnavailable(_:)`` when the storage cannot be written; nothing
    ///   changed then.
    public func save(_ tokens: TokenSet) async throws(SessionError) {
        let entry = StoredTokens(tokens)
        try await write(entry)
        var index = try await readIndex()
        if !index.accounts.contains(entry.subject) { index.accounts.append(entry.subject) }
        index.current = entry.subject
        try await writeIndex(index)
        try? await storage.write(key: previousSignInKey, data: Data("1".utf8))
        await changed()
    }

    /// Verifies a token response the app's backend handed over and saves it like ``save(_:)``:
    /// the backend path ends in the same session as the SDK's own code exchange.
    ///
    /// - Parameter response: The token response the backend handed over.
    /// - Throws: The ``KeywayError`` of verifying it, or a ``SessionError`` of saving it.
    public func save(_ response: TokenResponse) async throws {
        try await save(try await keyway.tokenClient.verify(response))
    }

    /// Signs in as a guest and saves the guest's tokens like ``save(_:)``: the guest becomes the
    /// current account. `POST /v1/guests` makes a new user without an identifier (where the
    /// application's policy allows guests) and answers its tokens, verified as a code
    /// redemption's are; the ID token and the access token carry `"is_anonymous": true`. A guest
    /// can have a profile and devices like any user; ``upgradeGuest(identifier:inviteCode:options:account:)``
    /// makes it a full account with the same user ID.
    ///
    /// - Returns: The saved tokens (``IDTokenClaims/isAnonymous`` is `true`).
    /// - Throws: The ``KeywayError`` of the request (`guests_disabled`, `rate_limited` with a
    ///   wait), or a ``SessionError`` of saving.
    @discardableResult
    public func signInAsGuest() async throws -> TokenSet {
        let tokens = try await keyway.tokenClient.signInAsGuest()
        try await save(tokens)
        return tokens
    }

    /// The signed-in accounts (user IDs), in the order they were added.
    ///
    /// - Returns: The user IDs; empty when no one is signed in.
    /// - Throws: ``SessionError/storageUnavailable(_:)`` when the storage cannot be read.
    public func accounts() async throws(SessionError) -> [String] {
        try await readIndex().accounts
    }

    /// The current account's user ID, or `nil` when no one is signed in.
    ///
    /// - Returns: The user ID, or `nil`.
    /// - Throws: ``SessionError/storageUnavailable(_:)`` when the storage cannot be read.
    public func currentAccount() async throws(SessionError) -> String? {
        try await readIndex().current
    }

    /// Makes another signed-in account the current one.
    ///
    /// - Parameter account: One of ``accounts()``.
    /// - Throws: ``SessionError/noAccessTokenPresent`` when that account is not signed in;
    ///   ``SessionError/storageUnavailable(_:)`` when the storage cannot be read or written.
    public func switchAccount(to account: String) async throws(SessionError) {
        var index = try await readIndex()
        guard index.accounts.contains(account) else { throw .noAccessTokenPresent }
        index.current = account
        try await writeIndex(index)
        await changed()
    }

    /// The stored tokens of `account` (default: the current one), or `nil` when it is not signed
    /// in: the token response as saved (the latest refresh's), the claims of its verified ID
    /// token (`tokens.idToken.subject`, `.email`, `.isAnonymous`…) and when the access token
    /// expires. An entry that cannot be decoded is not a session: it is removed, and `nil`
    /// returned.
    ///
    /// - Parameter account: A user ID of ``accounts()``; `nil` for the current account.
    /// - Returns: The account's tokens as stored, whatever their expiry; `nil` when it is not signed in.
    /// - Throws: ``SessionError/storageUnavailable(_:)`` when the storage cannot be read.
    public func tokens(account: String? = nil) async throws(SessionError) -> TokenSet? {
        try await entry(account: account)?.tokenSet(now: keyway.options.clock.now())
    }

    /// The stored entry of `account` (default: the current one); an undecodable one is removed.
    func entry(account: String? = nil) async throws(SessionError) -> StoredTokens? {
        guard let account = try await resolve(account) else { return nil }
        do {
            guard let data = try await storage.read(key: storageKey(account: account)) else { return nil }
            return try JSONDecoder().decode(StoredTokens.self, from: data)
        } catch let error as SecureStorageError {
            throw Self.map(error)
        } catch {
            // Undecodable data is not a session: forget it.
            try? await remove(account)
            return nil
        }
    }

    /// A valid access token of `account` (default: the current one), refreshed first when it
    /// has expired or expires within the skew; `nil` when nobody (or not that account) is signed
    /// in. Concurrent callers share one refresh.
    ///
    /// ```swift
    /// if let accessToken = try await session.accessToken() {   // nil when signed out
    ///     print(accessToken)                                  // masked; .revealed to send it
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - account: A user ID of ``accounts()``; `nil` for the current account.
    ///   - throwIfMissing: Whether nobody signed in throws ``SessionError/noAccessTokenPresent``
    ///     instead of returning `nil` (default `false`).
    /// - Returns: The access token; `nil` when that account is not signed in (and
    ///   `throwIfMissing` is `false`).
    /// - Throws: ``SessionError``: `invalidRefreshToken` (the session was cleared: sign in
    ///   again), `networkConnectionFailure` or `serverError` (the session is kept),
    ///   `storageUnavailable`; `noAccessTokenPresent` only with `throwIfMissing`.
    public func accessToken(account: String? = nil, throwIfMissing: Bool = false) async throws(SessionError)
        -> Sensitive<String>?
    {
        guard let current = try await entry(account: account) else {
            if throwIfMissing { throw .noAccessTokenPresent }
            return nil
        }
        if current.accessTokenExpiresAt.timeIntervalSince(keyway.options.clock.now()) > refreshSkew {
            return current.accessToken
        }
        return try await refreshed(from: current).accessToken
    }

    /// Refreshes now, whatever the access token's expiry (for example after the server rejected it).
    ///
    /// - Parameter account: A user ID of ``accounts()``; `nil` for the current account.
    /// - Returns: The refreshed tokens, already saved.
    /// - Throws: The ``SessionError``s of ``accessToken(account:throwIfMissing:)``.
    @discardableResult
    public func refresh(account: String? = nil) async throws(SessionError) -> TokenSet {
        guard let current = try await entry(account: account) else { throw .noAccessTokenPresent }
        return try await refreshed(from: current).tokenSet(now: keyway.options.clock.now())
    }

    /// Signs `account` (default: the current one) out on this device: revokes its refresh token
    /// at the server when it can (a failure there does not stop the local sign-out) and deletes
    /// its entry. Other accounts stay signed in; when the current one leaves, the first remaining
    /// account becomes current. With `scope: .allDevices` the server first ends every session of
    /// the user, on every device; if that fails, nothing is signed out and the error is thrown.
    ///
    /// - Parameters:
    ///   - account: A user ID of ``accounts()``; `nil` for the current account.
    ///   - scope: `.local` (this device) or `.allDevices`.
    /// - Throws: ``SessionError``: `storageUnavailable`; with `.allDevices`, also the failure to
    ///   end the sessions at the server.
    public func signOut(account: String? = nil, scope: SignOutScope = .local) async throws(SessionError) {
        guard let account = try await resolve(account) else { return }
        if scope == .allDevices {
            guard let token = try await accessToken(account: account) else { throw .noAccessTokenPresent }
            do {
                try await keyway.tokenClient.signOutEverywhere(accessToken: token)
            } catch let error as KeywayError {
                if case .networkFailure(let why) = error { throw .networkConnectionFailure(why) }
                throw .serverError(error.description)
            } catch {
                throw .serverError(String(describing: error))
            }
        }
        if let refreshToken = try await entry(account: account)?.refreshToken {
            try? await keyway.tokenClient.revoke(token: refreshToken)
        }
        try await remove(account)
        keyway.eventBroadcaster.emit(.signedOut, ["account": account, "reason": "user"])
    }

    /// Signs every account out on this device, one after the other as ``signOut(account:scope:)``
    /// does with `.local`.
    ///
    /// - Throws: ``SessionError/storageUnavailable(_:)`` when the storage cannot be read or
    ///   written; the accounts before the failure are signed out, the others not.
    public func signOutAll() async throws(SessionError) {
        for account in try await accounts() {
            try await signOut(account: account)
        }
    }

    private func resolve(_ account: String?) async throws(SessionError) -> String? {
        if let account { return account }
        return try await readIndex().current
    }

    private func remove(_ account: String) async throws(SessionError) {
        do {
            try await storage.delete(key: storageKey(account: account))
        } catch {
            throw Self.map(error)
        }
        var index = try await readIndex()
        index.accounts.removeAll { $0 == account }
        if index.current == account { index.current = index.accounts.first }
        try await writeIndex(index)
        await changed()
    }

    private func readIndex() async throws(SessionError) -> AccountIndex {
        do {
            guard let data = try await storage.read(key: indexKey) else { return AccountIndex() }
            return (try? JSONDecoder().decode(AccountIndex.self, from: data)) ?? AccountIndex()
        } catch {
            throw Self.map(error)
        }
    }

    private func writeIndex(_ index: AccountIndex) async throws(SessionError) {
        do {
            try await storage.write(key: indexKey, data: try JSONEncoder().encode(index))
        } catch let error as SecureStorageError {
            throw Self.map(error)
        } catch {
            throw .serverError("The account list could not be encoded.")
        }
    }

    // MARK: Refresh

    private func refreshed(from current: StoredTokens) async throws(SessionError) -> StoredTokens {
        let account = current.subject
        let task: Task<StoredTokens, any Error>
        if let running = refreshTasks[account] {
            task = running
        } else {
            task = Task { try await self.performRefresh(from: current) }
            refreshTasks[account] = task
            state.setLoading(true)
        }
        do {
            let tokens = try await task.value
            if refreshTasks[account] == task {
                refreshTasks[account] = nil
                await changed()
            }
            return tokens
        } catch {
            if refreshTasks[account] == task {
                refreshTasks[account] = nil
                await reloadState()
            }
            throw error as? SessionError ?? .serverError(String(describing: error))
        }
    }

    private func performRefresh(from current: StoredTokens) async throws -> StoredTokens {
        guard let locking = storage as? any CrossProcessLocking else {
            return try await refreshWithRetries(from: current)
        }
        do {
            return try await locking.withExclusiveLock { try await self.refreshUnderLock(from: current) }
        } catch let error as SecureStorageError {
            throw Self.map(error)
        }
    }

    /// Inside the cross-process lock: another process may have refreshed while this one waited.
    private func refreshUnderLock(from current: StoredTokens) async throws -> StoredTokens {
        guard let latest = try await entry(account: current.subject) else { throw SessionError.noAccessTokenPresent }
        if latest.accessToken != current.accessToken,
            latest.accessTokenExpiresAt.timeIntervalSince(keyway.options.clock.now()) > refreshSkew
        {
            return latest
        }
        return try await refreshWithRetries(from: latest)
    }

    private func refreshWithRetries(from current: StoredTokens) async throws -> StoredTokens {
        guard let refreshToken = current.refreshToken else {
            try? await remove(current.subject)
            keyway.eventBroadcaster.emit(
                .sessionExpired, ["account": current.subject, "reason": "The session has no refresh token."])
            throw SessionError.invalidRefreshToken("The session has no refresh token.")
        }
        var attempt = 1
        while true {
            do {
                let next: StoredTokens
                if let refresher {
                    next = StoredTokens(try await keyway.tokenClient.verify(try await refresher(refreshToken)))
                } else {
                    next = StoredTokens(try await keyway.tokenClient.refresh(refreshToken: refreshToken))
                }
                guard next.subject == current.subject else {
                    throw SessionError.serverError("The refreshed tokens belong to another user.")
                }
                try await write(next)
                keyway.logger.log(.info, .session, "tokens refreshed", ["account": .plain(next.subject)])
                keyway.eventBroadcaster.emit(
                    .tokenRefreshed,
                    ["account": next.subject, "expiresAt": ISO8601DateFormatter().string(from: next.accessTokenExpiresAt)])
                return next
            } catch let error as KeywayError {
                switch error {
                case .oauth(_, let body) where body.error == "invalid_grant":
                    try? await remove(current.subject)
                    keyway.eventBroadcaster.emit(
                        .sessionExpired,
                        ["account": current.subject, "reason": body.errorDescription ?? "The refresh token was refused."])
                    throw SessionError.invalidRefreshToken(body.errorDescription ?? "The refresh token was refused.")
                case .networkFailure(let why):
                    keyway.logger.log(
                        .warning, .session, "refresh attempt \(attempt) failed: \(why)",
                        ["account": .plain(current.subject)])
                    guard attempt < retryPolicy.maxAttempts else { throw SessionError.networkConnectionFailure(why) }
                    try? await Task.sleep(for: .milliseconds(Int64(delay(after: attempt) * 1000)))
                    attempt += 1
                case .oauth(let status, let body) where status >= 500:
                    guard attempt < retryPolicy.maxAttempts else {
                        throw SessionError.serverError(body.errorDescription ?? body.error)
                    }
                    try? await Task.sleep(for: .milliseconds(Int64(delay(after: attempt) * 1000)))
                    attempt += 1
                default:
                    throw SessionError.serverError(error.description)
                }
            }
        }
    }

    /// Exponential backoff with ±50 % jitter.
    private func delay(after attempt: Int) -> TimeInterval {
        let exponential = min(retryPolicy.maxDelay, retryPolicy.baseDelay * pow(2, Double(attempt - 1)))
        return exponential * Double.random(in: 0.5...1.5)
    }

    private func write(_ tokens: StoredTokens) async throws(SessionError) {
        do {
            let data = try JSONEncoder().encode(tokens)
            try await storage.write(key: storageKey(account: tokens.subject), data: data)
        } catch let error as SecureStorageError {
            throw Self.map(error)
        } catch {
            throw .serverError("The session could not be encoded.")
        }
    }

    private static func map(_ error: SecureStorageError) -> SessionError {
        switch error {
        case .unavailable(let why): .storageUnavailable(why)
        case .unreadable(let why): .storageUnavailable(why)
        }
    }
}
