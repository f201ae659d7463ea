import HTTPTypes
import Hummingbird
import KeywayProtocol

/// Trusted devices outside flows:
/// - `GET /v1/devices/{deviceId}/approvals[?wait=SECONDS]`, signed by the device key
///   (`Keyway-Device-Time`, `Keyway-Device-Signature`): the sign-ins waiting for approval;
/// - `POST /v1/approvals/{approvalId}`: approve or deny one, signed by the device key;
/// - `GET /v1/me/devices`, `DELETE /v1/me/devices[/{deviceId}]` with an access token: the user's
///   trusted devices in the token's application, and revoking them.
struct DeviceRoutes {
    let approvals: ApprovalService
    let users: UserRoutes

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configId)!
    private static let timeHeader = HTTPField.Name(ProtocolHeader.deviceTime)!
    private static let signatureHeader = HTTPField.Name(ProtocolHeader.deviceSignature)!

    func register(on router: RouteTable) {
        router.get("v1/devices/:deviceId/approvals") { request, context in
            let waitText = request.uri.queryParameters.get("wait") ?? "0"
            guard let wait = Int(waitText), (0...30).contains(wait) else {
                throw FlowProblem.invalidRequest([InvalidField(name: "wait", reason: "Wait 0 to 30 seconds.")])
            }
            let list = try await approvals.pending(
                deviceId: try context.parameters.require("deviceId"), configId: request.headers[Self.configIdHeader],
                time: request.headers[Self.timeHeader], signature: request.headers[Self.signatureHeader],
                wait: .seconds(wait))
            return try HTTPResponses.json(list)
        }
        router.post("v1/approvals/:approvalId") { request, context in
            let body = try await RequestDecoding.json(ApprovalDecisionRequest.self, from: request, context: context)
            let decision = try await approvals.decide(approvalId: try context.parameters.require("approvalId"), request: body)
            return try HTTPResponses.json(["decision": decision.rawValue])
        }
        router.get("v1/me/devices") { request, _ in
            try await signedIn(request) { claims, user in
                try HTTPResponses.json(
                    TrustedDeviceList(devices: try await approvals.devices(userId: user.id, configId: claims.clientId)))
            }
        }
        router.delete("v1/me/devices/:deviceId") { request, context in
            let deviceId = try context.parameters.require("deviceId")
            return try await signedIn(request) { claims, user in
                guard try await approvals.revoke(deviceId: deviceId, userId: user.id, configId: claims.clientId) else {
                    throw FlowProblem(
                        .notFound, status: 404, title: "Device not found",
                        detail: "No trusted device of this account has this ID.", action: .abort)
                }
                return Response(status: .noContent)
            }
        }
        router.delete("v1/me/devices") { request, _ in
            try await signedIn(request) { claims, user in
                _ = try await approvals.revokeAll(userId: user.id, configId: claims.clientId)
                return Response(status: .noContent)
            }
        }
    }

    /// Runs `body` for the access token's user; token errors answer as RFC 6750 says.
    private func signedIn(
        _ request: Request, _ body: (AccessTokenClaims, UserRecord) async throws -> Response
    ) async throws -> Response {
        let claims: AccessTokenClaims
        let user: UserRecord
        do {
            (claims, user) = try await users.authenticate(request)
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        }
        return try await body(claims, user)
    }
}
