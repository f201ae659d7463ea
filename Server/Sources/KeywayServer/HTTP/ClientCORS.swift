import Foundation
import HTTPTypes
import Hummingbird

/// The CORS headers of an endpoint a script calls as a client (the token and revocation
/// endpoints, ``CORS``), around the route's guard so that its refusals are readable too: a script
/// of an origin the named client registered may read the answer. The client is the one the request
/// names (``ClientAuthenticator/claimedClientId(form:authorization:)``), authenticated or not:
/// the headers grant nothing, they let the page read what the server answered. Only a request with
/// an `Origin` (a browser's) and no `Authorization` header has its form read here; the body is
/// handed on unchanged.
struct ClientCORS: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let cors: CORS

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard CORS.origin(of: request) != nil else {
            var response = try await next(request, context)
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
            return response
        }
        var request = request
        var form: [String: String] = [:]
        if request.headers[.authorization] == nil {
            guard let body = try? await request.collectBody(upTo: context.maxUploadSize) else {
                var refused = HTTPResponses.oauthError(.invalidRequest("The request body is too large."))
                refused.headers.append(HTTPField(name: .vary, value: "Origin"))
                return refused
            }
            form = (try? FormURLEncoded.parse(Data(buffer: body))) ?? [:]
        }
        var response = try await next(request, context)
        await cors.allowForClient(
            &response, request: request,
            clientId: ClientAuthenticator.claimedClientId(form: form, authorization: request.headers[.authorization]))
        return response
    }
}
