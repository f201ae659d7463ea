import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// One of the server's ES256 signing keys.
struct SigningKey: Sendable {
    let kid: String
    let privateKey: P256.Signing.PrivateKey

    var publicJWK: JSONWebKey { ECJWK.publicJWK(for: privateKey.publicKey) }

    /// A new key with its RFC 7638 thumbprint as `kid`.
    static func generate() -> SigningKey {
        let key = P256.Signing.PrivateKey()
        return SigningKey(kid: ECJWK.publicJWK(for: key.publicKey).kid ?? SecureRandom.identifier(prefix: "key"), privateKey: key)
    }

    /// The name a signing key is sealed under.
    static func sealingName(_ kid: String) -> String { "signing_key:\(kid)" }

    /// The key a stored row holds, opened with `masterKey`.
    init(_ stored: KeyRepository.StoredSigningKey, masterKey: MasterKey) throws {
        let opened = try masterKey.open(stored.privateKey, name: Self.sealingName(stored.kid))
        guard stored.algorithm == "ES256", let raw = Data(base64Encoded: opened),
            let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
        else { throw StorageError(description: "The stored signing key \(stored.kid) is unreadable.") }
        self.init(kid: stored.kid, privateKey: key)
    }

    init(kid: String, privateKey: P256.Signing.PrivateKey) {
        self.kid = kid
        self.privateKey = privateKey
    }

    /// The row that stores this key sealed with `masterKey`, signing from `activatesAt`.
    func stored(createdAt: Int64, activatesAt: Int64, masterKey: MasterKey) throws -> KeyRepository.StoredSigningKey {
        .init(
            kid: kid, algorithm: "ES256",
            privateKey: try masterKey.seal(privateKey.rawRepresentation.base64EncodedString(), name: Self.sealingName(kid)),
            createdAt: createdAt, activatesAt: activatesAt)
    }

    /// Loads the keys, creating and storing the first one on first start: the key that signs now.
    static func loadOrCreate(in database: any Database, now: Date, masterKey: MasterKey) async throws -> SigningKey {
        try await database.write { repositories in
            let schedule = KeySchedule(try await repositories.keys.signingKeys())
            if let current = schedule.signing(at: now.epochMilliseconds) {
                return try SigningKey(current, masterKey: masterKey)
            }
            if let current = schedule.keys.first(where: { $0.retiredAt == nil }) {
                // Made by another instance starting at the same moment, its clock a little ahead.
                return try SigningKey(current, masterKey: masterKey)
            }
            let key = SigningKey.generate()
            // The first key signs from the beginning of time: an instance whose clock is a little
            // behind the one that made it still finds it signing.
            try await repositories.keys.insertSigningKey(
                try key.stored(createdAt: now.epochMilliseconds, activatesAt: 0, masterKey: masterKey))
            return key
        }
    }
}

/// Which signing key signs when, and which public keys are published: a pure reading of the
/// stored keys.
///
/// A key signs from its `activatesAt` until its `retiredAt`; at any moment the signing key is
/// the latest activated one not yet retired. A rotation stores the next key to activate after
/// the pre-publication time and retires the current one at that moment, keeping its public key
/// published until every token it signed has expired. So at every moment exactly one key signs,
/// and the published set holds it, its announced successor and the keys whose tokens may still
/// be in use.
struct KeySchedule: Sendable {
    let keys: [KeyRepository.StoredSigningKey]

    init(_ keys: [KeyRepository.StoredSigningKey]) {
        self.keys = keys
    }

    /// The key that signs at `now`.
    func signing(at now: Int64) -> KeyRepository.StoredSigningKey? {
        keys.filter { $0.activatesAt <= now && ($0.retiredAt.map { now < $0 } ?? true) }
            .max { ($0.activatesAt, $0.kid) < ($1.activatesAt, $1.kid) }
    }

    /// The keys published at `now`, oldest first.
    func published(at now: Int64) -> [KeyRepository.StoredSigningKey] {
        keys.filter { $0.publishUntil.map { now < $0 } ?? true }
    }

    /// The announced successor, not yet signing.
    func pending(at now: Int64) -> KeyRepository.StoredSigningKey? {
        keys.filter { $0.activatesAt > now }.min { $0.activatesAt < $1.activatesAt }
    }

    /// The next moment the schedule changes after `now` (a key activates, retires or stops
    /// being published).
    func nextChange(after now: Int64) -> Int64? {
        keys.flatMap { [$0.activatesAt, $0.retiredAt, $0.publishUntil].compactMap { $0 } }.filter { $0 > now }.min()
    }
}

/// What a rotation did.
struct SigningKeyRotation: Sendable, Equatable {
    /// The key that signs until the new one activates.
    var currentKid: String
    /// The next key, published now, signing from ``activatesAt``.
    var nextKid: String
    var activatesAt: Int64
    /// Until when the current key stays published.
    var currentPublishedUntil: Int64
    /// `false` when a rotation was already under way: its successor is returned, none is made.
    var created: Bool
}

extension KeySchedule {
    /// Rotates within one transaction: publishes a new key that signs from `now +
    /// prePublication`, and retires the current key then, keeping it published `keepPublished`
    /// longer. A rotation already under way is returned as it is, so two rotations at one moment
    /// (two instances, two administrators) make one successor.
    static func rotate(
        in repositories: Repositories, now: Int64, prePublication: Int64, keepPublished: Int64, masterKey: MasterKey
    ) async throws -> SigningKeyRotation {
        let schedule = KeySchedule(try await repositories.keys.signingKeys())
        guard let current = schedule.signing(at: now) else {
            throw StorageError(description: "No signing key is active: start the server once before rotating.")
        }
        if let pending = schedule.pending(at: now) {
            return SigningKeyRotation(
                currentKid: current.kid, nextKid: pending.kid, activatesAt: pending.activatesAt,
                currentPublishedUntil: current.publishUntil ?? pending.activatesAt + keepPublished, created: false)
        }
        let next = SigningKey.generate()
        let activatesAt = now + prePublication
        try await repositories.keys.insertSigningKey(
            try next.stored(createdAt: now, activatesAt: activatesAt, masterKey: masterKey))
        try await repositories.keys.retireSigningKey(
            kid: current.kid, at: activatesAt, publishUntil: activatesAt + keepPublished)
        return SigningKeyRotation(
            currentKid: current.kid, nextKid: next.kid, activatesAt: activatesAt,
            currentPublishedUntil: activatesAt + keepPublished, created: true)
    }
}
