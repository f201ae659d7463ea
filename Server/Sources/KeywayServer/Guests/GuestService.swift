import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// Guests: `POST /v1/guests` makes a user without an identifier and answers its tokens, as a
/// completed flow's code would redeem (access, refresh and ID token, each with
/// `"is_anonymous": true`). Upgrading is a sign-up flow (``FlowEngine``); the maintenance sweep
/// deletes guests never upgraded (``GuestSweep``).
struct GuestService: Sendable {
    let engine: FlowEngine
    let tokenEndpoint: TokenEndpoint

    /// The rate-limit window of `guests.perAddressPerHour`.
    static let window: Int64 = 3_600_000
    /// The `amr` of a guest's session: nothing was proved.
    static let amr = "guest"

    /// Makes a guest for the application `configId` and answers its tokens, bound to the DPoP key
    /// of `dpopProofs` when the request has one (and required by an application that requires DPoP).
    func create(configId: String?, clientAddress: String?, dpopProofs: [String], url: URL) async throws
        -> TokenEndpoint.Answer
    {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        let database = engine.database
        guard let application = try await database.read({ try await $0.applications.find(configId: configId) }) else {
            throw FlowProblem.unknownConfigId
        }
        let policy = try await database.read { try await self.engine.directory.policy(for: application, in: $0) }
        guard policy.guests.enabled else { throw FlowProblem.guestsDisabled }
        let binding: String?
        do {
            binding = try await tokenEndpoint.dpopBinding(proofs: dpopProofs, application: application, tokenURL: url)
        } catch let failure as OAuthFailure {
            throw FlowProblem(
                ProblemCode(rawValue: "invalid_dpop_proof"), status: 400, title: "Invalid DPoP proof",
                detail: failure.body.errorDescription ?? "The DPoP proof is not valid for this request.", action: .abort)
        }
        let now = engine.clock.now()
        let nowMillis = now.epochMilliseconds
        let family = RefreshTokenFamily(
            policy: application.refreshTokens ?? tokenEndpoint.tokens.lifetimes.refreshTokens, now: nowMillis)
        let addressHash = clientAddress.map(ClientAddress.hash)
        let limit = policy.guests.perAddressPerHour
        let (subject, refreshToken): (TokenIssuer.Subject, String?) = try await database.write { repositories in
            if let addressHash {
                let (hits, windowStart) = try await repositories.rateLimits.hit(
                    bucket: "guest-ip:\(application.id):\(addressHash)", now: nowMillis, window: Self.window)
                if hits > Int64(limit) {
                    self.engine.metrics.rateLimited(limit: "guest-ip")
                    throw FlowProblem.rateLimited(until: windowStart + Self.window, now: nowMillis)
                }
            }
            let user = UserRecord(
                id: SecureRandom.identifier(prefix: "usr"), projectId: application.projectId, email: nil,
                emailVerified: false, createdAt: nowMillis, isAnonymous: true, guestApplicationId: application.id)
            try await repositories.users.insert(user)
            let session = SessionRecord(
                id: SecureRandom.identifier(prefix: "ses"), userId: user.id, applicationId: application.id,
                amr: [Self.amr], authTime: nowMillis, createdAt: nowMillis, revokedAt: nil, clientAddressHash: addressHash)
            try await repositories.sessions.insert(session)
            let scope = RefreshTokenFamily.scope(Scopes.defaultScope, grantedTo: application)
            let refreshToken = try await family.start(
                scope: scope, applicationId: application.id, userId: user.id, sessionId: session.id,
                authorizationCodeHash: nil, binding: binding, in: repositories)
            let subject = TokenIssuer.Subject(
                userId: user.id, email: nil, emailVerified: false, clientId: application.configId,
                sessionId: session.id, authTime: nowMillis, amr: session.amr, scope: scope, dpopJkt: binding,
                isAnonymous: true)
            return (subject, refreshToken)
        }
        engine.logger.info("guest created", metadata: ["user": "\(subject.userId)"])
        let response = try tokenEndpoint.tokenResponse(
            for: subject, refreshToken: refreshToken, now: now, idTokenAlgorithm: application.idTokenAlgorithm)
        engine.metrics.tokensIssued(grant: "guest")
        return TokenEndpoint.Answer(
            response: response, dpopNonce: application.dpop.requireNonce ? tokenEndpoint.dpop.nonce() : nil)
    }
}
