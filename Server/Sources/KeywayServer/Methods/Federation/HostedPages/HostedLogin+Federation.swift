import Foundation
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The browser's return from another provider to the hosted pages: `/v1/federation/callback`
/// verified the provider's answer and sent the browser here with the provider's `state`; the
/// page hands that state to its flow's `callback` action, as an app does, and goes on.
extension HostedLogin {
    /// `GET /login/federation?state=…[&error=…]`: continues the visit's flow after the provider.
    /// The state must be one of the visit's own flow (a state of another flow is refused without
    /// touching the visit: a browser cannot be signed in to someone else's account this way); a
    /// provider's error or a refusal of the flow goes back to the first page with its sentence.
    func federationReturn(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        let query = HostedLoginRoutes.query(request)
        // A malformed state is refused before anything else is read.
        guard let state = query["state"], !state.isEmpty, state.count <= 256 else {
            return invalidStatePage(strings: HostedStrings.forLocales([]))
        }
        guard let visit = try await visit(for: request) else { return expiredPage() }
        let strings = HostedStrings.forLocales(visit.state.request?.uiLocales ?? [])
        guard let flowId = visit.state.flowId, let flowToken = try flowToken(of: visit) else {
            return Self.seeOther("/login")
        }
        do {
            let step = try await engine.current(
                flowId: flowId, flowToken: flowToken, configId: visit.application.configId, traceId: context.traceId)
            // Delivered again after the flow moved on: the page of where it stands.
            guard step.kind == .redirect, let callback = step.action(named: "callback") else {
                return Self.seeOther("/login")
            }
            var body: [String: JSONValue] = ["state": .string(state)]
            if let error = query["error"] {
                var answer = URLComponents()
                answer.queryItems = [URLQueryItem(name: "state", value: state), URLQueryItem(name: "error", value: error)]
                body = ["url": .string(FederationCallbacks.hostedReturnURL(issuer()) + "?" + (answer.percentEncodedQuery ?? ""))]
            }
            let next = try await flowAPI.perform(
                callback, body: body, flowToken: flowToken, configId: visit.application.configId,
                userAgent: request.headers[.userAgent], context: context)
            if let next, case .completed(let completion) = next.payload {
                return try await completeSignIn(visit, completion: completion, request: request, strings: strings)
            }
        } catch let problem as FlowProblem {
            if problem.problem.code == .invalidState { return invalidStatePage(strings: strings) }
            // A refused answer: the visit starts again from the first page, with the reason (the
            // provider's page would send the browser straight back to the provider).
            return try await restart(visit, after: problem)
        }
        return Self.seeOther("/login")
    }

    /// A provider's answer that is not for this visit's sign-in: an error page, the visit as it was.
    private func invalidStatePage(strings: HostedStrings) -> Response {
        errorPage(
            title: strings("error.title"), text: FlowProblem.invalidState.problem.detail, status: 400, strings: strings)
    }
}
