import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// The caches of upstream providers a flow engine uses: discovery documents and key sets. The
/// server gives one to the methods (``MethodDependencies``); without it, a process-wide one.
struct UpstreamProviders: Sendable, MethodDependencyKey {
    static let defaultValue = UpstreamProviders()

    let discovery: ProviderDiscovery
    let keys: JWKSFetcher

    init(clock: any ServerClock = SystemClock(), logger: Logger = Logger(label: "keyway.federation")) {
        discovery = ProviderDiscovery(clock: clock, logger: logger)
        keys = JWKSFetcher(clock: clock, logger: logger)
    }
}

/// Signing in with one of the project's upstream OpenID Connect providers: the method
/// `federation:<id>`. Choosing it answers a `redirect` step with the provider's authorization URL
/// (state, PKCE S256, nonce); the callback proves the primary factor (`amr` `fed`).
struct FederationMethod: FlowMethod, ConfigurableMethod {
    let providerId: String
    var id: FlowMethodID { AuthenticationMethod(rawValue: FederationMethodID.methodId(providerId: providerId)) }

    let settings: [any MethodSettings.Type] = [FederationSettings.self]

    /// The provider list's own problems (the providers' existence in the project is checked when
    /// the policy is saved).
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] { policy.federation.problems() }

    /// How long the provider's state lives: ten minutes.
    static let stateLifetime: Int64 = 600_000

    // Enabled through the policy's `federation.providers`, never listed in `primaryMethods`.

    func provider(_ context: FlowEngine.Context) -> IdentityProviderRecord? {
        context.identityProviders.first { $0.id == providerId }
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        let provider = self.provider(context)
        let label = provider?.label ?? providerId
        return MethodOption(
            id: id.rawValue, type: .federation, label: label,
            provider: FederationProvider(id: providerId, label: label, iconURL: provider?.iconURL))
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        let context = method.context
        guard purpose == .primary, let provider = provider(context) else { throw FlowProblem.methodUnavailable }
        let metadata: ProviderMetadata
        do {
            metadata = try await method.dependencies[UpstreamProviders.self].discovery.metadata(issuer: provider.issuer)
        } catch {
            throw FlowProblem.methodUnavailable
        }
        let state = SecureRandom.token(prefix: "fst")
        let nonce = SecureRandom.token(prefix: "fno")
        let verifier = SecureRandom.token(prefix: "fpk")
        let purposeKey = "federation:\(context.flow.id)"
        try await method.repositories.federatedIdentities.insertState(
            FederationStateRecord(
                stateHash: sha256Hex(state), flowId: context.flow.id, providerId: provider.id,
                sealedNonce: try method.seal(Array(nonce.utf8), purpose: purposeKey),
                sealedVerifier: try method.seal(Array(verifier.utf8), purpose: purposeKey),
                createdAt: context.now, expiresAt: context.now + Self.stateLifetime))
        var components = URLComponents(string: metadata.authorizationEndpoint)
        var items = components?.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: provider.clientId),
            URLQueryItem(name: "redirect_uri", value: Self.callbackURL(issuer: context.audience)),
            URLQueryItem(name: "scope", value: provider.scopes.joined(separator: " ")),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: nonce),
            URLQueryItem(name: "code_challenge", value: PKCE.challenge(for: verifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        if let mode = provider.preset.responseMode { items.append(URLQueryItem(name: "response_mode", value: mode)) }
        components?.queryItems = items
        guard let url = components?.url?.absoluteString else { throw FlowProblem.methodUnavailable }
        let returnScheme =
            context.progress.authorization?.redirectURI.flatMap { URL(string: $0)?.scheme?.lowercased() } ?? "https"
        try method.keep(FederationStage(url: url, returnScheme: returnScheme))
    }

    /// Where providers send the browser back, under `issuer`.
    static func callbackURL(issuer: String) -> String {
        return (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/v1/federation/callback"
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let stage = (try? active.state(as: FederationStage.self)) ?? FederationStage()
        let provider = self.provider(context)
        let label = provider?.label ?? providerId
        if stage.linking == true {
            // Sign in to link: the account that uses the identity's address signs in first.
            let hint = context.identifier.masked
            draft.info = StepInfo(id: "linkAccount", label: "Sign in to link your account")
            draft.payload = .linkAccount(
                LinkAccountPayload(
                    provider: FederationProvider(id: providerId, label: label, iconURL: provider?.iconURL),
                    identifierHint: hint))
            draft.messages.append(
                Message(
                    level: "info", code: "linkAccount",
                    text: "\(hint) already has an account. Sign in to it once, and \(label) is linked to it."))
            draft.post("continue", "federation/link", label: "Sign in to link")
            return
        }
        draft.info = StepInfo(id: "redirect", label: label)
        draft.payload = .redirect(
            RedirectPayload(
                url: stage.url ?? "", returnScheme: stage.returnScheme ?? "https",
                provider: FederationProvider(id: providerId, label: label, iconURL: provider?.iconURL)))
        draft.post(
            "callback", "federation/callback", label: "Continue",
            fields: [
                Field(name: "url", type: .text, required: false, label: "Callback URL"),
                Field(name: "code", type: .hidden, required: false),
                Field(name: "state", type: .hidden, required: false),
            ])
    }

    /// The family's routes: the flow's `callback` and where providers send the browser back (its
    /// members have none of their own).
    func routes(_ routes: FlowInputRoutes) {
        Self.callbackRoute(routes)
        Self.browserCallbackRoutes(routes)
    }

    /// `POST /v1/flows/{flowId}/federation/callback`: the URL the app received, or its code and
    /// state; and `POST /v1/flows/{flowId}/federation/link`: `continue` on a `linkAccount` step.
    static func callbackRoute(_ routes: FlowInputRoutes) {
        let callbacks = FederationCallbacks(routes)
        let inputs = routes.stagedInputs
        routes.input("federation/link", ofFamily: { FederationMethodID.providerId($0.rawValue) != nil }) { method in
            try await continueLinking(&method)
        }
        routes.post("federation/callback") { request, context, target in
            let body = try await RequestDecoding.json(FederationCallbackRequest.self, from: request, context: context)
            var code = body.code?.revealed
            var state = body.state
            if let url = body.url {
                let items = URLComponents(string: url)?.queryItems ?? []
                code = code ?? items.first { $0.name == "code" }?.value
                state = state ?? items.first { $0.name == "state" }?.value
                if let error = items.first(where: { $0.name == "error" })?.value {
                    throw FlowProblem.federationFailed("The provider answered \(error.prefix(64)): the sign-in was not finished there.")
                }
            }
            guard let state, !state.isEmpty, state.count <= 256, (code?.count ?? 0) <= 4096 else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "url", reason: "Send the callback URL the app received, or its code and state.")
                ])
            }
            return try await callback(code: code, state: state, target: target, callbacks: callbacks, inputs: inputs)
        }
    }
}

/// The state of a federation stage. Every member is optional.
struct FederationStage: Codable, Sendable, Equatable {
    /// The provider's authorization URL the step shows.
    var url: String?
    var returnScheme: String?
    /// The identity's address belongs to an account, which the user signs in to first: the step
    /// is `linkAccount`.
    var linking: Bool?
}
