import Foundation
import KeywayJOSE
import KeywayProtocol

extension FlowProblem {
    /// A provider's callback with a state this server did not issue, issued for another flow, or
    /// expired.
    static let invalidState = FlowProblem(
        .invalidState, status: 400, title: "Invalid state",
        detail: "This answer of the sign-in provider does not belong to this sign-in, or it expired. Start again.",
        action: .restartFlow)

    /// Signing in with the provider failed; `detail` says why.
    static func federationFailed(_ detail: String) -> FlowProblem {
        FlowProblem(.federationFailed, status: 502, title: "Sign-in with the provider failed", detail: detail, action: .selectMethod)
    }
}

/// The provider's answer outside any flow transaction: the state a callback carries looked up,
/// the code redeemed and the ID token verified — they talk to the provider — and the browser's
/// callback, which keeps the verified answer with its state for the flow's own callback
/// (``FederationMethod/callback(code:state:_:)``).
struct FederationCallbacks: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: SecretBox
    let upstream: UpstreamProviders
    /// The server's issuer URL, under which providers send the browser back.
    let issuer: @Sendable () -> String

    /// A state this server issued, with its flow's redirect URI and its provider.
    struct IssuedState: Sendable {
        let record: FederationStateRecord
        let provider: IdentityProviderRecord?
        let redirectURI: String?
        /// The hosted pages drive the flow: the browser goes back to them.
        var hostedPages = false
    }

    /// The state `state` names, if this server issued it.
    func issuedState(_ state: String) async throws -> IssuedState? {
        try await database.read { repositories -> IssuedState? in
            guard let record = try await repositories.federatedIdentities.state(hash: sha256Hex(state)),
                let flow = try await repositories.flows.find(id: record.flowId),
                let application = try await repositories.applications.find(id: flow.applicationId)
            else { return nil }
            return IssuedState(
                record: record,
                provider: try await repositories.identityProviders.find(
                    projectId: application.projectId, id: record.providerId),
                redirectURI: flow.progress?.authorization?.redirectURI,
                hostedPages: flow.progress?.authorization?.hostedPages == true)
        }
    }

    /// The provider's answer verified — the code redeemed with the state's PKCE verifier, the ID
    /// token checked against the state's nonce — outside any transaction, as it talks to the provider.
    func verifyUpstream(_ issued: IssuedState, code: String, now: Int64) async throws -> UpstreamIdentity {
        guard issued.record.expiresAt > now, let provider = issued.provider else { throw FlowProblem.invalidState }
        let record = issued.record
        let purpose = "federation:\(record.flowId)"
        let nonce = String(decoding: try secrets.open(record.sealedNonce, purpose: purpose), as: UTF8.self)
        let verifier = String(decoding: try secrets.open(record.sealedVerifier, purpose: purpose), as: UTF8.self)
        let metadata: ProviderMetadata
        do {
            metadata = try await upstream.discovery.metadata(issuer: provider.issuer)
        } catch {
            throw FlowProblem.methodUnavailable
        }
        do {
            let secret = try UpstreamTokenClient.clientSecret(for: provider, secrets: secrets, now: now)
            let idToken = try await UpstreamTokenClient.redeem(
                code: code, verifier: verifier, redirectURI: FederationMethod.callbackURL(issuer: issuer()), provider: provider,
                clientSecret: secret, metadata: metadata)
            guard let jwksURL = URL(string: metadata.jwksUri) else { throw FlowProblem.methodUnavailable }
            let keys = try await upstream.keys.keys(at: jwksURL, kid: UpstreamIDTokenVerifier.keyID(of: idToken))
            return try UpstreamIDTokenVerifier.verify(idToken, provider: provider, keys: keys, nonce: nonce, now: now)
        } catch let failure as UpstreamTokenClient.Failure {
            throw FlowProblem.federationFailed(failure.message)
        } catch let refusal as UpstreamIDTokenVerifier.Refusal {
            throw FlowProblem.federationFailed(refusal.message)
        } catch is JWKSFetcher.Failure {
            throw FlowProblem.federationFailed("The provider's keys could not be fetched.")
        }
    }

    /// `GET|POST /v1/federation/callback`, where the provider sends the browser: the answer is
    /// verified and kept with the state, and the browser goes on to the app with the state
    /// (`<redirect URI>?state=…`), whose client then sends it to the flow's `callback` — or, for
    /// a flow the hosted pages drive, back to them (`<issuer>/login/federation?state=…`), which do
    /// the same. A second delivery goes the same way and changes nothing. Answers where the
    /// browser goes.
    func browserCallback(code: String?, state: String, error: String?, appleUser: String? = nil) async throws -> String {
        let now = clock.now().epochMilliseconds
        guard let issued = try await issuedState(state) else { throw FlowProblem.invalidState }
        let destination = issued.hostedPages ? Self.hostedReturnURL(issuer()) : issued.redirectURI
        guard let destination, var next = URLComponents(string: destination) else {
            throw FlowProblem.invalidState
        }
        var items = next.queryItems ?? []
        items.append(URLQueryItem(name: "state", value: state))
        if issued.record.consumedAt == nil, issued.record.outcome == nil {
            if let error {
                items.append(URLQueryItem(name: "error", value: String(error.prefix(64))))
            } else if let code {
                let outcome: String
                do {
                    var identity = try await verifyUpstream(issued, code: code, now: now)
                    // Apple gives the name only on the first sign-in, in the form's `user` member.
                    if identity.name == nil, let name = appleUser.flatMap(Self.appleUserName) { identity.name = name }
                    outcome = try UpstreamOutcome.stored(identity)
                } catch let refusal as FlowProblem where refusal.problem.code == .federationFailed {
                    // Refused: the browser goes on all the same, and the flow's callback gives the
                    // reason where the sign-in is driven (a hosted page, or the app's problem).
                    outcome = try UpstreamOutcome.stored(refusal: refusal.problem.detail)
                }
                let hash = sha256Hex(state)
                try await database.write { try await $0.federatedIdentities.recordOutcome(hash: hash, outcome: outcome) }
            }
        }
        next.queryItems = items
        guard let location = next.string else { throw FlowProblem.invalidState }
        return location
    }

    /// Where the hosted pages take the provider's answer back: `<issuer>/login/federation`.
    static func hostedReturnURL(_ issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/login/federation"
    }

    /// The name in Apple's `user` form member (`{"name": {"firstName", "lastName"}, "email"}`).
    static func appleUserName(_ json: String) -> String? {
        guard json.count <= 4096,
            case .object(let user)? = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)),
            case .object(let name)? = user["name"]
        else { return nil }
        let parts = [name["firstName"]?.stringValue, name["lastName"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : String(parts.joined(separator: " ").prefix(200))
    }

    /// Fetches a provider's discovery document before the flow's transaction, so choosing the
    /// provider never holds the transaction while the provider answers (or does not): the
    /// method's `begin` then reads the cache, or the failure remembered for 30 seconds.
    static func prefetchDiscovery(providerId: String, _ preparation: MethodPreparation) async {
        let issuer = try? await preparation.database.read { repositories -> String? in
            guard let flow = try await repositories.flows.find(id: preparation.flowId),
                let application = try await repositories.applications.find(id: flow.applicationId)
            else { return nil }
            return try await repositories.identityProviders.find(projectId: application.projectId, id: providerId)?.issuer
        }
        if let issuer = issuer ?? nil { _ = try? await preparation.dependencies[UpstreamProviders.self].discovery.metadata(issuer: issuer) }
    }
}

extension FederationCallbacks {
    /// The callbacks on the flow engine's database, secrets and issuer, and the providers' caches
    /// the server gave the methods.
    init(_ routes: FlowInputRoutes) {
        let engine = routes.engine
        self.init(
            database: engine.database, clock: engine.clock, secrets: engine.secrets,
            upstream: engine.dependencies[UpstreamProviders.self], issuer: engine.issuer)
    }
}
