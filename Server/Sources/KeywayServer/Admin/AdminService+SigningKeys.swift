import Foundation
import KeywayProtocol

/// One signing key as the admin API lists it.
package struct AdminSigningKey: Codable, Sendable, Equatable {
    package var kid: String
    /// `ES256` or `RS256`: each algorithm has its own keys and schedule.
    package var algorithm: String
    /// `active` (signs now for its algorithm), `next` (published, signs from `activatesAt`), or `retired`
    /// (published until `publishedUntil` so that the tokens it signed can be checked).
    package var state: String
    package var activatesAt: Date
    package var retiredAt: Date?
    package var publishedUntil: Date?
}

/// `GET /admin/signing-keys`.
package struct AdminSigningKeyList: Codable, Sendable, Equatable {
    package var keys: [AdminSigningKey]
}

/// Body of `POST /admin/signing-keys/rotate`.
package struct RotateSigningKeyRequest: Codable, Sendable {
    /// The algorithm whose key is rotated: `ES256` (default) or `RS256`.
    package var algorithm: String?
    /// Seconds the next key is published before it signs: 0…604800, default 3600.
    package var prePublicationSeconds: Int?
}

/// Answer of `POST /admin/signing-keys/rotate`.
package struct AdminKeyRotation: Codable, Sendable, Equatable {
    /// The algorithm whose key was rotated.
    package var algorithm: String
    package var currentKid: String
    package var nextKid: String
    package var activatesAt: Date
    package var currentPublishedUntil: Date
    /// `false` when a rotation was already under way: its next key is the answer.
    package var created: Bool
}

extension AdminService {
    /// The default pre-publication time: an hour, well beyond what clients cache a key set for.
    package static let defaultPrePublication = 3600
    /// The longest pre-publication time: a week.
    package static let maximumPrePublication = 7 * 86_400

    /// The published signing keys and their states.
    package func signingKeys() async throws -> AdminSigningKeyList {
        let now = clock.now().epochMilliseconds
        let stored = try await database.read { try await $0.keys.signingKeys(publishedAt: now) }
        let schedule = KeySchedule(stored)
        let active = Set(SigningAlgorithm.allCases.compactMap { schedule.of($0).signing(at: now)?.kid })
        return AdminSigningKeyList(
            keys: stored.map { key in
                AdminSigningKey(
                    kid: key.kid, algorithm: key.algorithm,
                    state: active.contains(key.kid) ? "active" : key.activatesAt > now ? "next" : "retired",
                    activatesAt: Date(epochMilliseconds: key.activatesAt), retiredAt: key.retiredAt.map { Date(epochMilliseconds: $0) },
                    publishedUntil: key.publishUntil.map { Date(epochMilliseconds: $0) })
            })
    }

    /// Starts a rotation of the keys of `algorithm` (`ES256` when `nil`): the next key is
    /// published now and signs `prePublicationSeconds` from now; the current key of that
    /// algorithm stops signing then and stays published until every token it signed has expired
    /// (the longest token lifetime and five minutes more). The other algorithm's keys are not
    /// touched. A rotation under way is returned unchanged.
    ///
    /// - Throws: ``AdminError`` for an unknown algorithm or a pre-publication time out of range.
    package func rotateSigningKey(algorithm name: String? = nil, prePublicationSeconds: Int?) async throws
        -> AdminKeyRotation
    {
        guard let algorithm = SigningAlgorithm(rawValue: name ?? SigningAlgorithm.es256.rawValue) else {
            throw AdminError.invalidInput(
                field: "algorithm",
                message: "Signing keys are \(SigningAlgorithm.names.joined(separator: " or ")) keys, not \(name ?? "").")
        }
        let seconds = prePublicationSeconds ?? Self.defaultPrePublication
        guard (0...Self.maximumPrePublication).contains(seconds) else {
            throw AdminError.invalidInput(
                field: "prePublicationSeconds",
                message: "Publish the next key 0 to \(Self.maximumPrePublication) seconds before it signs.")
        }
        guard let masterKey else {
            throw AdminError.invalidInput(
                field: "masterKey", message: "Give the master key (KEYWAY_MASTER_KEY or --master-key-file) to rotate signing keys.")
        }
        let now = clock.now().epochMilliseconds
        let keep = Int64((max(tokenLifetimes.accessToken, tokenLifetimes.idToken) + 300) * 1000)
        // Made before the transaction: an RSA key takes a while to generate.
        let next = try await SigningKey.generate(algorithm)
        let rotation = try await database.write { repositories in
            try await KeySchedule.rotate(
                algorithm, in: repositories, now: now, prePublication: Int64(seconds) * 1000, keepPublished: keep,
                masterKey: masterKey, next: next)
        }
        return AdminKeyRotation(
            algorithm: rotation.algorithm.rawValue, currentKid: rotation.currentKid, nextKid: rotation.nextKid,
            activatesAt: Date(epochMilliseconds: rotation.activatesAt),
            currentPublishedUntil: Date(epochMilliseconds: rotation.currentPublishedUntil), created: rotation.created)
    }
}

