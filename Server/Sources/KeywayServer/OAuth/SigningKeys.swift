import Crypto
import CryptoExtras
import Foundation
import NIOPosix
import KeywayJOSE
import KeywayProtocol

/// One of the server's signing keys: an EC P-256 key for `ES256` or an RSA-2048 key for `RS256`.
struct SigningKey: Sendable {
    /// The private key, of the algorithm's type.
    enum Material: Sendable {
        case es256(P256.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    let kid: String
    let material: Material
    /// The public key as the JWKS publishes it, with `kid`, `use: sig` and `alg`.
    let publicJWK: JSONWebKey

    var algorithm: SigningAlgorithm {
        switch material {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    /// The public key of an `ES256` key, to verify the access tokens it signed; `nil` for an RSA key.
    var es256PublicKey: P256.Signing.PublicKey? {
        if case .es256(let key) = material { return key.publicKey }
        return nil
    }

    /// A new key of `algorithm` with its RFC 7638 thumbprint as `kid`. An RSA key's primes are
    /// searched for on a thread of NIO's blocking pool, never on Swift's cooperative pool: the
    /// search can take seconds, and a cooperative thread held that long stalls every other task of
    /// the process (on two cores, half of the pool).
    static func generate(_ algorithm: SigningAlgorithm = .es256) async throws -> SigningKey {
        switch algorithm {
        case .es256:
            try SigningKey(kid: nil, material: .es256(P256.Signing.PrivateKey()))
        case .rs256:
            try await NIOThreadPool.singleton.runIfActive {
                try SigningKey(kid: nil, material: .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048)))
            }
        }
    }

    /// The name a signing key is sealed under.
    static func sealingName(_ kid: String) -> String { "signing_key:\(kid)" }

    /// The key a stored row holds, opened with `masterKey`.
    init(_ stored: KeyRepository.StoredSigningKey, masterKey: MasterKey) throws {
        let opened = try masterKey.open(stored.privateKey, name: Self.sealingName(stored.kid))
        let unreadable = StorageError(description: "The stored signing key \(stored.kid) is unreadable.")
        guard let algorithm = SigningAlgorithm(rawValue: stored.algorithm), let raw = Data(base64Encoded: opened) else {
            throw unreadable
        }
        let material: Material
        do {
            switch algorithm {
            case .es256: material = .es256(try P256.Signing.PrivateKey(rawRepresentation: raw))
            case .rs256: material = .rs256(try _RSA.Signing.PrivateKey(derRepresentation: raw))
            }
            try self.init(kid: stored.kid, material: material)
        } catch {
            throw unreadable
        }
    }

    /// An `RS256` key from its DER form (PKCS#1 or PKCS#8; 2048 bits or more), its thumbprint as
    /// `kid`.
    init(rsaDER der: Data) throws {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(derRepresentation: der)
        } catch {
            throw StorageError(description: "The first RS256 key given is not a DER RSA private key of 2048 bits or more.")
        }
        try self.init(kid: nil, material: .rs256(key))
    }

    /// A key with `kid`, or its RFC 7638 thumbprint when `kid` is `nil`.
    init(kid: String?, material: Material) throws {
        var jwk: JSONWebKey
        switch material {
        case .es256(let key): jwk = ECJWK.publicJWK(for: key.publicKey)
        case .rs256(let key): jwk = try RSAJWK.publicJWK(for: key.publicKey)
        }
        if let kid { jwk.kid = kid }
        self.kid = jwk.kid ?? SecureRandom.identifier(prefix: "key")
        self.material = material
        self.publicJWK = jwk
    }

    /// A compact JWS of `payload` signed with this key, its `alg` and `kid` in the header.
    func sign(payload: Data, header: [String: JSONValue]) throws -> String {
        var header = header
        header["kid"] = .string(kid)
        switch material {
        case .es256(let key): return try JWSSigner.signES256(payload: payload, header: header, key: key)
        case .rs256(let key): return try JWSSigner.signRS256(payload: payload, header: header, key: key)
        }
    }

    /// The row that stores this key sealed with `masterKey`, signing from `activatesAt`.
    func stored(createdAt: Int64, activatesAt: Int64, masterKey: MasterKey) throws -> KeyRepository.StoredSigningKey {
        let raw =
            switch material {
            case .es256(let key): key.rawRepresentation
            case .rs256(let key): key.derRepresentation
            }
        return .init(
            kid: kid, algorithm: algorithm.rawValue,
            privateKey: try masterKey.seal(raw.base64EncodedString(), name: Self.sealingName(kid)),
            createdAt: createdAt, activatesAt: activatesAt)
    }

    /// Loads the keys of `algorithm`, creating and storing the first one on first start: the key
    /// that signs now, `first` when given, else a new one. A new RSA key is generated outside the
    /// transaction (it takes a while), and dropped when another instance stored one meanwhile.
    @discardableResult
    static func loadOrCreate(
        _ algorithm: SigningAlgorithm = .es256, in database: any Database, now: Date, masterKey: MasterKey,
        first: SigningKey? = nil
    ) async throws -> SigningKey {
        if let existing = try await database.read({ try await current(algorithm, in: $0, now: now) }) {
            return try SigningKey(existing, masterKey: masterKey)
        }
        let key: SigningKey
        if let first { key = first } else { key = try await SigningKey.generate(algorithm) }
        guard key.algorithm == algorithm else {
            throw StorageError(description: "The first \(algorithm.rawValue) signing key given is not an \(algorithm.rawValue) key.")
        }
        return try await database.write { repositories in
            if let existing = try await current(algorithm, in: repositories, now: now) {
                return try SigningKey(existing, masterKey: masterKey)
            }
            // The first key signs from the beginning of time: an instance whose clock is a little
            // behind the one that made it still finds it signing.
            try await repositories.keys.insertSigningKey(
                try key.stored(createdAt: now.epochMilliseconds, activatesAt: 0, masterKey: masterKey))
            return key
        }
    }

    /// The stored key of `algorithm` that signs at `now`, if there is one.
    private static func current(_ algorithm: SigningAlgorithm, in repositories: Repositories, now: Date) async throws
        -> KeyRepository.StoredSigningKey?
    {
        let schedule = KeySchedule(try await repositories.keys.signingKeys()).of(algorithm)
        // A key not yet retired but not yet signing was made by another instance starting at the
        // same moment, its clock a little ahead.
        return schedule.signing(at: now.epochMilliseconds) ?? schedule.keys.first { $0.retiredAt == nil }
    }
}

/// Which signing key signs when, and which public keys are published: a pure reading of the
/// stored keys. Each algorithm has a schedule of its own (``of(_:)``); the published set is the
/// union of them all, so rotating one algorithm's key never unpublishes another's.
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

    /// The schedule of one algorithm's keys.
    func of(_ algorithm: SigningAlgorithm) -> KeySchedule {
        KeySchedule(keys.filter { $0.algorithm == algorithm.rawValue })
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
    /// The algorithm whose key was rotated.
    var algorithm: SigningAlgorithm
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
    /// Rotates the keys of `algorithm` within one transaction: publishes a new key that signs from
    /// `now + prePublication`, and retires the current key of that algorithm then, keeping it
    /// published `keepPublished` longer. The other algorithm's keys are left as they are. A
    /// rotation already under way is returned as it is, so two rotations at one moment (two
    /// instances, two administrators) make one successor.
    ///
    /// - Parameter next: The successor to store, made beforehand (an RSA key takes a while to
    ///   generate); `nil` makes one.
    static func rotate(
        _ algorithm: SigningAlgorithm = .es256, in repositories: Repositories, now: Int64, prePublication: Int64,
        keepPublished: Int64, masterKey: MasterKey, next candidate: SigningKey? = nil
    ) async throws -> SigningKeyRotation {
        let schedule = KeySchedule(try await repositories.keys.signingKeys()).of(algorithm)
        guard let current = schedule.signing(at: now) else {
            throw StorageError(
                description: "No \(algorithm.rawValue) signing key is active: start the server once before rotating.")
        }
        if let pending = schedule.pending(at: now) {
            return SigningKeyRotation(
                algorithm: algorithm, currentKid: current.kid, nextKid: pending.kid, activatesAt: pending.activatesAt,
                currentPublishedUntil: current.publishUntil ?? pending.activatesAt + keepPublished, created: false)
        }
        let next: SigningKey
        if let candidate { next = candidate } else { next = try await SigningKey.generate(algorithm) }
        guard next.algorithm == algorithm else {
            throw StorageError(description: "The next signing key is not an \(algorithm.rawValue) key.")
        }
        let activatesAt = now + prePublication
        try await repositories.keys.insertSigningKey(
            try next.stored(createdAt: now, activatesAt: activatesAt, masterKey: masterKey))
        try await repositories.keys.retireSigningKey(
            kid: current.kid, at: activatesAt, publishUntil: activatesAt + keepPublished)
        return SigningKeyRotation(
            algorithm: algorithm, currentKid: current.kid, nextKid: next.kid, activatesAt: activatesAt,
            currentPublishedUntil: activatesAt + keepPublished, created: true)
    }
}
