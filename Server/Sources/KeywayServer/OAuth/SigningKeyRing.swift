import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import NIOCore

/// The signing keys as this instance knows them: for each algorithm the one that signs now, and
/// the published ones of every algorithm, which the JWKS lists and tokens are verified with. Read from the database at start and again every
/// ``refreshInterval`` of the server's clock, and whenever the schedule it knows changes (a key
/// activates or retires), so that every instance on a shared database follows a rotation — the
/// pre-publication time leaves them room to learn of a new key before it signs.
final class SigningKeyRing: Sendable {
    private struct State: Sendable {
        var schedule: KeySchedule
        var keys: [String: SigningKey]
        var nextRefresh: Int64
        /// When the keys were last read for a token naming an unknown key.
        var lastMissReload: Int64 = .min
        /// The JWKS as last encoded, with the key IDs it lists.
        var encodedJWKS: (keyIDs: [String], body: ByteBuffer)?
    }

    private let database: any Database
    private let clock: any ServerClock
    private let masterKey: MasterKey
    private let state: Locked<State>

    /// How often the keys are read again at the latest, in milliseconds of the server's clock.
    static let refreshInterval: Int64 = 30_000

    private init(database: any Database, clock: any ServerClock, masterKey: MasterKey, state: State) {
        self.database = database
        self.clock = clock
        self.masterKey = masterKey
        self.state = Locked(state)
    }

    /// Loads the keys (opening them with `masterKey`), creating the first key of each algorithm
    /// on first start; the first `RS256` key is `firstRS256Key` (DER) when given.
    static func load(
        database: any Database, clock: any ServerClock, masterKey: MasterKey, firstRS256Key: Data? = nil
    ) async throws -> SigningKeyRing {
        for algorithm in SigningAlgorithm.allCases {
            let given = try firstRS256Key.flatMap { algorithm == .rs256 ? try SigningKey(rsaDER: $0) : nil }
            try await SigningKey.loadOrCreate(algorithm, in: database, now: clock.now(), masterKey: masterKey, first: given)
        }
        let ring = SigningKeyRing(
            database: database, clock: clock, masterKey: masterKey,
            state: State(schedule: KeySchedule([]), keys: [:], nextRefresh: 0))
        try await ring.reload()
        return ring
    }

    /// Reads the keys again now.
    func reload() async throws {
        let now = clock.now().epochMilliseconds
        let stored = try await database.read { try await $0.keys.signingKeys(publishedAt: now) }
        var keys: [String: SigningKey] = [:]
        for row in stored { keys[row.kid] = try SigningKey(row, masterKey: masterKey) }
        let schedule = KeySchedule(stored)
        let next = min(now + Self.refreshInterval, schedule.nextChange(after: now) ?? .max)
        state.withLock {
            $0 = State(schedule: schedule, keys: keys, nextRefresh: next, lastMissReload: $0.lastMissReload)
        }
    }

    /// Reads the keys again for a token that names a key this instance does not know: another
    /// instance may sign with a key published after this one last read them — an emergency
    /// rotation without pre-publication — and its tokens are then accepted here at once, not a
    /// refresh interval later. At most once per ``missReloadInterval``, so tokens naming made-up
    /// keys cannot make every request read the database. Answers whether the keys were read.
    func reloadForUnknownKey(_ kid: String) async throws -> Bool {
        let now = clock.now().epochMilliseconds
        let due = state.withLock { state -> Bool in
            guard state.keys[kid] == nil, now >= state.lastMissReload &+ Self.missReloadInterval else { return false }
            state.lastMissReload = now
            return true
        }
        guard due else { return false }
        do {
            try await reload()
        } catch is any TransientDatabaseFailure {
            return false
        }
        return true
    }

    /// How soon the keys are read again for another unknown key, in milliseconds of the server's
    /// clock.
    static let missReloadInterval: Int64 = 1_000

    /// Reads the keys again when the refresh interval passed or the schedule changed. While the
    /// database is away (``TransientDatabaseFailure``) the keys this instance knows stay in use,
    /// and the next read is tried after ``retryInterval``: the JWKS, and verification of the
    /// tokens they sign, go on from memory.
    func refreshIfDue() async throws {
        let due = state.withLock { clock.now().epochMilliseconds >= $0.nextRefresh }
        guard due else { return }
        do {
            try await reload()
        } catch is any TransientDatabaseFailure {
            let retry = clock.now().epochMilliseconds + Self.retryInterval
            state.withLock { $0.nextRefresh = max($0.nextRefresh, retry) }
        }
    }

    /// How soon the keys are read again after the database could not be reached, in
    /// milliseconds of the server's clock.
    static let retryInterval: Int64 = 1_000

    /// The key of `algorithm` that signs now.
    func signing(_ algorithm: SigningAlgorithm = .es256) throws -> SigningKey {
        let now = clock.now().epochMilliseconds
        return try state.withLock { state in
            guard let current = state.schedule.of(algorithm).signing(at: now), let key = state.keys[current.kid] else {
                throw StorageError(description: "No \(algorithm.rawValue) signing key is active.")
            }
            return key
        }
    }

    /// The published `ES256` key with `kid`, to verify an access token this server signed (access
    /// tokens are never signed with another algorithm).
    func verificationKey(kid: String) -> P256.Signing.PublicKey? {
        let now = clock.now().epochMilliseconds
        return state.withLock { state in
            guard state.schedule.published(at: now).contains(where: { $0.kid == kid }) else { return nil }
            return state.keys[kid]?.es256PublicKey
        }
    }

    /// The JWKS as `encode` writes it, encoded again only when the published keys change: the
    /// answer of every JWKS request, which costs a lookup, not an encoding.
    func encodedJWKS(_ encode: (JSONWebKeySet) throws -> ByteBuffer) rethrows -> ByteBuffer {
        let now = clock.now().epochMilliseconds
        let (keyIDs, cached, set) = state.withLock { state -> ([String], ByteBuffer?, JSONWebKeySet?) in
            let published = state.schedule.published(at: now)
            let keyIDs = published.map(\.kid)
            if let encoded = state.encodedJWKS, encoded.keyIDs == keyIDs { return (keyIDs, encoded.body, nil) }
            return (keyIDs, nil, JSONWebKeySet(keys: published.compactMap { state.keys[$0.kid]?.publicJWK }))
        }
        if let cached { return cached }
        let body = try encode(set ?? JSONWebKeySet(keys: []))
        state.withLock { $0.encodedJWKS = (keyIDs, body) }
        return body
    }

    /// The published public keys of every algorithm (JWKS), oldest first.
    func jwks() -> JSONWebKeySet {
        let now = clock.now().epochMilliseconds
        return state.withLock { state in
            JSONWebKeySet(keys: state.schedule.published(at: now).compactMap { state.keys[$0.kid]?.publicJWK })
        }
    }
}
