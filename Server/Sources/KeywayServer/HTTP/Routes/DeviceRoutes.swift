import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayPowerAuthWire
import KeywayProtocol

/// Trusted devices outside flows:
/// - `GET /v1/devices/{deviceId}/approvals[?wait=SECONDS]`, signed by the device key
///   (`Keyway-Device-Time`, `Keyway-Device-Signature`): the sign-ins waiting for approval;
/// - `POST /v1/approvals/{approvalId}`: approve or deny one, signed by the device key;
/// - `GET /v1/me/devices`, `DELETE /v1/me/devices[/{deviceId}]` with an access token: the user's
///   trusted devices in the token's application, and revoking them.
///
/// An activated PowerAuth device may do the same with an `X-PowerAuth-Authorization` signature
/// instead: `GET /v1/approvals` (any factors; URI identifier `/v1/approvals`, the canonical query
/// signed), `POST /v1/approvals/{approvalId}` (two factors over the JSON body
/// `{"decision", "qrSecret"?}`; URI identifier `/v1/approvals/{approvalId}`) and
/// `DELETE /v1/me/devices/{deviceId}` (two factors; URI identifier `/v1/me/devices/{deviceId}`).
struct DeviceRoutes {
    let approvals: ApprovalService
    let powerAuth: PowerAuthSignatureVerifier

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configID)!
    private static let timeHeader = HTTPField.Name(ProtocolHeader.deviceTime)!
    private static let signatureHeader = HTTPField.Name(ProtocolHeader.deviceSignature)!

    func register(on router: RouteTable) {
        router.declaring(.deviceKey).get("v1/devices/:deviceId/approvals") { request, context in
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
        router.declaring(.powerAuthSignature).get("v1/approvals") { request, _ in
            try await signedByActivation(
                request, uriId: "/v1/approvals",
                body: PowerAuthSignatureBody.canonicalQuery(request.uri.query), factors: { $0.contains(.possession) }
            ) { activation in
                try HTTPResponses.json(try await approvals.pending(forActivation: activation))
            }
        }
        router.declaring(.either(.deviceKey, .powerAuthSignature)).post("v1/approvals/:approvalId") { request, context in
            let approvalId = try context.parameters.require("approvalId")
            if request.headers[PowerAuthRoutes.authorizationHeader] != nil {
                let data = try await RequestDecoding.body(request, context: context)
                let body: PowerAuthApprovalDecision
                do {
                    body = try WireCoding.makeDecoder().decode(PowerAuthApprovalDecision.self, from: data)
                } catch let error as DecodingError {
                    throw FlowProblem.invalidRequest([RequestDecoding.invalidField(for: error)])
                }
                return try await signedByActivation(
                    request, uriId: "/v1/approvals/\(approvalId)", body: data, factors: PowerAuthFactorRule.twoFactors.accepts
                ) { activation in
                    let decision = try await approvals.decide(
                        approvalId: approvalId, decision: body.decision, qrSecret: body.qrSecret?.revealed,
                        activation: activation)
                    return try HTTPResponses.json(["decision": decision.rawValue])
                }
            }
            let body = try await RequestDecoding.json(ApprovalDecisionRequest.self, from: request, context: context)
            let decision = try await approvals.decide(approvalId: approvalId, request: body)
            return try HTTPResponses.json(["decision": decision.rawValue])
        }
        router.declaring(.account).get("v1/me/devices") { _, context in
            let signedIn = try context.signedInUser()
            return try HTTPResponses.json(
                TrustedDeviceList(
                    devices: try await approvals.devices(userId: signedIn.user.id, configId: signedIn.claims.clientId)))
        }
        router.declaring(.either(.account, .powerAuthSignature)).delete("v1/me/devices/:deviceId") { request, context in
            let deviceId = try context.parameters.require("deviceId")
            // The guard let a PowerAuth-signed request through unauthenticated: its signature is
            // verified here, over this route's URI identifier.
            guard let signedIn = context.user else {
                return try await signedByActivation(
                    request, uriId: "/v1/me/devices/\(deviceId)",
                    body: PowerAuthSignatureBody.canonicalQuery(request.uri.query),
                    factors: PowerAuthFactorRule.twoFactors.accepts
                ) { activation in
                    guard try await approvals.revoke(deviceId: deviceId, activation: activation) else {
                        throw Self.deviceNotFound
                    }
                    return Response(status: .noContent)
                }
            }
            guard
                try await approvals.revoke(
                    deviceId: deviceId, userId: signedIn.user.id, configId: signedIn.claims.clientId)
            else {
                throw Self.deviceNotFound
            }
            return Response(status: .noContent)
        }
        router.declaring(.account).delete("v1/me/devices") { _, context in
            let signedIn = try context.signedInUser()
            _ = try await approvals.revokeAll(userId: signedIn.user.id, configId: signedIn.claims.clientId)
            return Response(status: .noContent)
        }
    }

    private static let deviceNotFound = FlowProblem(
        .notFound, status: 404, title: "Device not found", detail: "No trusted device of this account has this ID.",
        action: .abort)

    /// Runs `body` for the activation whose PowerAuth signature of this request (`uriId`, `body`)
    /// verifies with factors `factors` accepts; a refused signature answers with the published
    /// PowerAuth error body.
    private func signedByActivation(
        _ request: Request, uriId: String, body: @autoclosure () throws -> Data,
        factors: @escaping (PowerAuthSignatureFactors) -> Bool, _ run: (PowerAuthActivationRecord) async throws -> Response
    ) async throws -> Response {
        let verified: PowerAuthSignatureVerifier.Verified
        do {
            verified = try await powerAuth.verify(
                header: request.headers[PowerAuthRoutes.authorizationHeader], method: request.method.rawValue,
                uriId: uriId, body: try body(), required: factors)
        } catch let failure as PowerAuthFailure {
            return PowerAuthRoutes.error(failure)
        }
        return try await run(verified.activation)
    }
}

/// The body of a decision signed by an activated PowerAuth device.
struct PowerAuthApprovalDecision: Decodable, Sendable {
    var decision: ApprovalDecision
    var qrSecret: Sensitive<String>?
}
