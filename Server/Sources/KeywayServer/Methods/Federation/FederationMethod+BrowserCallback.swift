import Foundation
import HTTPTypes
import Hummingbird

extension FederationMethod {
    /// `GET` and `POST /v1/federation/callback`: where upstream providers send the browser back,
    /// in the query or as a form (Apple's `form_post`). The provider's `state` names the flow.
    static func browserCallbackRoutes(_ routes: FlowInputRoutes) {
        let callbacks = FederationCallbacks(routes)
        let callback = routes.router.declaring(.flow)
        callback.get("v1/federation/callback") { request, _ in
            let query = request.uri.queryParameters
            return try await browserRedirect(
                callbacks, code: query.get("code"), state: query.get("state"), error: query.get("error"))
        }
        callback.post("v1/federation/callback") { request, context in
            let form = (try? FormURLEncoded.parse(try await RequestDecoding.body(request, context: context))) ?? [:]
            return try await browserRedirect(
                callbacks, code: form["code"], state: form["state"], error: form["error"], appleUser: form["user"])
        }
    }

    /// Sends the browser on to the app after a provider's answer.
    private static func browserRedirect(
        _ callbacks: FederationCallbacks, code: String?, state: String?, error: String?, appleUser: String? = nil
    ) async throws -> Response {
        guard let state, !state.isEmpty, state.count <= 256, (code?.count ?? 0) <= 4096 else {
            throw FlowProblem.invalidState
        }
        let location = try await callbacks.browserCallback(code: code, state: state, error: error, appleUser: appleUser)
        return Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}
