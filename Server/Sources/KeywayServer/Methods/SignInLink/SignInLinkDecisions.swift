import Foundation
import Logging

/// What a sign-in link's page reads and decides (``HostedLogin/showLink(_:context:)``): the link
/// of a token, and its approval or denial on another device, once.
struct SignInLinkDecisions: Sendable {
    let database: any Database
    let hasher: OneTimeCodeHasher
    let clock: any ServerClock
    let logger: Logger

    /// What the page of a link finds.
    enum Lookup: Sendable {
        /// A link that can still be approved or denied, with its flow's application.
        case open(SignInLinkRecord, ApplicationRecord)
        /// Approved or denied on this request.
        case decided(approved: Bool, ApplicationRecord)
        /// Already used, approved or denied.
        case used
        /// Unknown, expired, or its sign-in is over.
        case unknown
    }

    /// Reads the link of `token`; changes nothing (a page that only shows it, or a scanner
    /// fetching it, spends nothing).
    func lookUp(token: String) async throws -> Lookup {
        let now = clock.now().epochMilliseconds
        let hash = hasher.hash(linkToken: token)
        return try await database.read { repositories in
            try await self.lookUp(hash: hash, now: now, in: repositories)
        }
    }

    /// Approves or denies the sign-in of the link of `token`, once.
    func decide(token: String, approve: Bool) async throws -> Lookup {
        let now = clock.now().epochMilliseconds
        let hash = hasher.hash(linkToken: token)
        return try await database.write { repositories in
            let found = try await self.lookUp(hash: hash, now: now, in: repositories)
            guard case .open(_, let application) = found else { return found }
            guard
                try await repositories.signInLinks.transition(
                    tokenHash: hash, from: .pending, to: approve ? .approved : .denied, now: now)
            else { return .used }
            self.logger.info("sign-in link decided", metadata: ["approved": "\(approve)"])
            return .decided(approved: approve, application)
        }
    }

    private func lookUp(hash: String, now: Int64, in repositories: Repositories) async throws -> Lookup {
        guard let link = try await repositories.signInLinks.find(tokenHash: hash), now < link.expiresAt else {
            return .unknown
        }
        guard link.state == .pending else { return .used }
        guard let flow = try? await repositories.flows.find(id: link.flowId), flow.state == .awaitingCode,
            now < flow.expiresAt,
            let application = try await repositories.applications.find(id: link.applicationId)
        else { return .unknown }
        return .open(link, application)
    }
}

extension HostedLogin {
    /// The sign-in links' decisions, on the flows' database.
    var signInLinks: SignInLinkDecisions {
        SignInLinkDecisions(database: engine.database, hasher: engine.hasher, clock: engine.clock, logger: engine.logger)
    }
}
