import Foundation
import KeywayProtocol

/// One signing key as the admin API lists it.
package struct AdminSigningKey: Codable, Sendable, Equatable {
    package var kid: String
    /// `active` (signs now), `next` (published, signs from `activatesAt`), or `retired`
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
    /// Seconds the next key is published before it signs: 0…604800, default 3600.
    package var prePublicationSeconds: Int?
}

/// Answer of `POST /admin/signing-keys/rotate`.
package struct AdminKeyRotation: Codable, Sendable, Equatable {
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
        let active = schedule.signing(at: now)?.kid
        return AdminSigningKeyList(
            keys: stored.map { key in
                AdminSigningKey(
                    kid: key.kid,
                    state: key.kid == active ? "active" : key.activatesAt > now ? "next" : "retired",
                    activatesAt: Date(epochMilliseconds: key.activatesAt), retiredAt: key.retiredAt.map { Date(epochMilliseconds: $0) },
                    publishedUntil: key.publishUntil.map { Date(epochMilliseconds: $0) })
            })
    }

    /// Starts a rotation: the next key is published now and signs `prePublicationSeconds` from
    /// now; the current key stops signing then and stays published until every token it signed
    /// has expired (the longest token lifetime and five minutes more). A rotation under way is
    /// returned unchanged.
    ///
    /// - Throws: ``AdminError`` for a pre-publication time out of range.
    package func rotateSigningKey(prePublicationSeconds: Int?) async throws -> AdminKeyRotation {
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
        let rotation = try await database.write { repositories in
            try await KeySchedule.rotate(
                in: repositories, now: now, prePublication: Int64(seconds) * 1000, keepPublished: keep,
                masterKey: masterKey)
        }
        return AdminKeyRotation(
            currentKid: rotation.currentKid, nextKid: rotation.nextKid,
            activatesAt: Date(epochMilliseconds: rotation.activatesAt),
            currentPublishedUntil: Date(epochMilliseconds: rotation.currentPublishedUntil), created: rotation.created)
    }
}

