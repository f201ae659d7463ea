import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol

/// `POST /v1/guests`: a new guest of the application the `X-Keyway-Config-Id` header names, and
/// its tokens (``GuestService``). The body, if any, is ignored.
struct GuestRoutes {
    let guests: GuestService
    let issuer: @Sendable () -> String

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configID)!

    func register(on router: RouteTable) {
        let router = router.declaring(.anyone)
        router.post("v1/guests") { request, context in
            guard let url = URL(string: "\(issuer())/v1/guests") else { throw FlowProblem.internalError }
            let answer = try await guests.create(
                configId: request.headers[Self.configIdHeader], clientAddress: context.remoteAddress,
                dpopProofs: request.headers[values: HTTPResponses.dpopHeader], url: url)
            var headers: HTTPFields = [HTTPResponses.pragmaHeader: "no-cache"]
            if let nonce = answer.dpopNonce { headers[HTTPResponses.dpopNonceHeader] = nonce }
            return try HTTPResponses.json(answer.response, extraHeaders: headers)
        }
    }
}

extension AccessTokenAuthenticator {
    /// The guest a flow's start names: the access token of `Authorization` (Bearer, or DPoP with
    /// its proof), or else the body's `guestToken` (never a DPoP-bound token, which needs its
    /// proof). Refused unless the token is valid and its user is still a guest.
    func guest(_ request: Request, bodyToken: String?) async throws -> FlowEngine.Guest {
        let verified: SignedInUser
        if request.headers[.authorization] != nil {
            do {
                verified = try await authenticate(request)
            } catch is OAuthFailure {
                throw FlowProblem.invalidGuestToken
            }
        } else {
            guard let token = bodyToken, !token.isEmpty else { throw FlowProblem.invalidGuestToken }
            let issuer = issuer()
            guard let signed = try await accessTokens.verifyWithCurrentKeys(token, issuer: issuer) else {
                throw FlowProblem.invalidGuestToken
            }
            let found: SignedInUser? = try await database.read { repositories in
                let claims = signed
                guard try await accessTokens.isLive(claims, in: repositories),
                    claims.dpopJkt == nil, let user = try await repositories.users.find(id: claims.subject)
                else { return nil }
                return SignedInUser(claims: claims, user: user)
            }
            guard let found else { throw FlowProblem.invalidGuestToken }
            verified = found
        }
        let (claims, user) = (verified.claims, verified.user)
        guard user.isAnonymous else { throw FlowProblem.notAGuest }
        return FlowEngine.Guest(userId: user.id, clientId: claims.clientId)
    }
}
