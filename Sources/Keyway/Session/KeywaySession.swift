import Foundation
import KeywayProtocol

/// A signed-in user's tokens, kept in ``SecureStorage``, with a valid access token whenever the
/// app asks for one.
///
/// ```swift
/// let session = KeywaySession(keyway: keyway, storage: storage)
/// try await session.save(try await keyway.exchange(authCode: code, codeVerifier: verifier))
/// let token = try await session.accessToken()   // refreshed when expired or about to expire
/// ```
///
/// - Concurrent callers share one refresh (single flight).
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
    /// What is stored for a signed-in user.
    public struct Tokens: Codable, Sendable, Equatable {
        public var accessToken: Sensitive<String>
        public var refreshToken: Sensitive<String>?
        public var idToken: Sensitive<String>?
        public var accessTokenExpiresAt: Date
        /// The user ID (`sub`).
        public var subject: String

        public init(_ set: TokenSet) {
            accessToken = set.response.accessToken
            refreshToken = set.response.refreshToken
            idToken = set.response.idToken
            accessTokenExpiresAt = set.accessTokenExpiresAt
            subject = set.idToken.subject
        }
    }

    /// How network failures of a refresh are retried.
    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included.
        public var maxAttempts: Int
        /// The delay before the second attempt; each later delay doubles, with ±50 % jitter.
        public var baseDelay: TimeInterval
        /// The longest delay between attempts.
        public var maxDelay: TimeInterval

        public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
            self.maxAttempts = max(1, maxAttempts)
            self.baseDelay = max(0, baseDelay)
            self.maxDelay = max(0, maxDelay)
        }
    }

    private let keyway: Keyway
    private let storage: any SecureStorage
    private let refreshSkew: TimeInterval
    private let retryPolicy: RetryPolicy
    private var refreshTask: Task<Tokens, any Error>?

    /// The storage key of this application's session.
    public nonisolated var storageKey: String { "keyway.session.\(keyway.configId)" }

    /// - Parameters:
    ///   - refreshSkew: refresh when the access token expires within this many seconds.
    public init(
        keyway: Keyway, storage: any SecureStorage, refreshSkew: TimeInterval = 60,
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.keyway = keyway
        self.storage = storage
        self.refreshSkew = max(0, refreshSkew)
        self.retryPolicy = retryPolicy
    }

    /// Stores the tokens of a completed sign-in, replacing any earlier session.
    public func save(_ tokens: TokenSet) async throws(SessionError) {
        try await write(Tokens(tokens))
    }

    /// The stored tokens, or `nil` when no one is signed in.
    public func tokens() async throws(SessionError) -> Tokens? {
        do {
            guard let data = try await storage.read(key: storageKey) else { return nil }
            return try JSONDecoder().decode(Tokens.self, from: data)
        } catch let error as SecureStorageError {
            throw Self.map(error)
        } catch {
            // Undecodable data is not a session: forget it.
            try? await storage.delete(key: storageKey)
            return nil
        }
    }

    /// A valid access token, refreshed first when it has expired or expires within the skew.
    /// Returns `nil` when no one is signed in and `throwIfMissing` is false.
    public func accessToken(throwIfMissing: Bool = true) async throws(SessionError) -> Sensitive<String>? {
        guard let current = try await tokens() else {
            if throwIfMissing { throw .noAccessTokenPresent }
            return nil
        }
        if current.accessTokenExpiresAt.timeIntervalSince(keyway.options.clock.now()) > refreshSkew {
            return current.accessToken
        }
        return try await refreshed(from: current).accessToken
    }

    /// Refreshes now, whatever the access token's expiry (for example after the server rejected it).
    @discardableResult
    public func refresh() async throws(SessionError) -> Tokens {
        guard let current = try await tokens() else { throw .noAccessTokenPresent }
        return try await refreshed(from: current)
    }

    /// Signs out on this device: revokes the refresh token at the server when it can (a failure
    /// there does not stop the local sign-out) and deletes the stored session.
    public func signOut() async throws(SessionError) {
        let current = try await tokens()
        if let refreshToken = current?.refreshToken {
            try? await keyway.revoke(token: refreshToken)
        }
        do {
            try await storage.delete(key: storageKey)
        } catch {
            throw Self.map(error)
        }
    }

    // MARK: Refresh

    private func refreshed(from current: Tokens) async throws(SessionError) -> Tokens {
        let task: Task<Tokens, any Error>
        if let running = refreshTask {
            task = running
        } else {
            task = Task { try await self.performRefresh(from: current) }
            refreshTask = task
        }
        do {
            let tokens = try await task.value
            if refreshTask == task { refreshTask = nil }
            return tokens
        } catch {
            if refreshTask == task { refreshTask = nil }
            throw error as? SessionError ?? .serverError(String(describing: error))
        }
    }

    private func performRefresh(from current: Tokens) async throws -> Tokens {
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
    private func refreshUnderLock(from current: Tokens) async throws -> Tokens {
        guard let latest = try await tokens() else { throw SessionError.noAccessTokenPresent }
        if latest.accessToken != current.accessToken,
            latest.accessTokenExpiresAt.timeIntervalSince(keyway.options.clock.now()) > refreshSkew
        {
            return latest
        }
        return try await refreshWithRetries(from: latest)
    }

    private func refreshWithRetries(from current: Tokens) async throws -> Tokens {
        guard let refreshToken = current.refreshToken else {
            try? await storage.delete(key: storageKey)
            throw SessionError.invalidRefreshToken("The session has no refresh token.")
        }
        var attempt = 1
        while true {
            do {
                let next = Tokens(try await keyway.refresh(refreshToken: refreshToken))
                try await write(next)
                return next
            } catch let error as KeywayError {
                switch error {
                case .oauth(_, let body) where body.error == "invalid_grant":
                    try? await storage.delete(key: storageKey)
                    throw SessionError.invalidRefreshToken(body.errorDescription ?? "The refresh token was refused.")
                case .networkFailure(let why):
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

    private func write(_ tokens: Tokens) async throws(SessionError) {
        do {
            let data = try JSONEncoder().encode(tokens)
            try await storage.write(key: storageKey, data: data)
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
