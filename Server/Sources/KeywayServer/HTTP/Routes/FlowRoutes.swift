import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The flow API under `/v1/flows`: start, read, cancel, the engine's own actions (choose a
/// method, skip, the sign-up form, account management), and the routes each method registers
/// for its input (``FlowMethod/routes(_:)``).
struct FlowRoutes {
    let engine: FlowEngine
    /// Verifies the access token that starts an `accountManage` flow or names a guest.
    let tokens: AccessTokenAuthenticator

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configID)!
    private static let flowTokenHeader = HTTPField.Name(ProtocolHeader.flowToken)!
    private static let clientHeader = HTTPField.Name(ProtocolHeader.client)!

    func register(on router: RouteTable) {
        // Starting a flow is open to anyone (what a start makes the server keep is limited per
        // client address); everything after needs the flow.
        router.declaring(.anyone).group("v1/flows").post { request, context in
            let body = try await RequestDecoding.json(StartFlowRequest.self, from: request, context: context)
            // The application first: no token is looked at for a request that names none.
            guard let configId = request.headers[Self.configIdHeader], !configId.isEmpty else {
                throw FlowProblem.missingConfigId
            }
            var account: FlowEngine.Account?
            var guest: FlowEngine.Guest?
            if body.flowType == .accountManage {
                do {
                    let signedIn = try await tokens.authenticate(request)
                    let (claims, user) = (signedIn.claims, signedIn.user)
                    // A guest has no methods to manage: it signs up first.
                    if user.isAnonymous { throw FlowProblem.upgradeRequired }
                    account = FlowEngine.Account(
                        userId: user.id, sessionId: claims.sessionId, clientId: claims.clientId, scope: claims.scope)
                } catch is OAuthFailure {
                    throw FlowProblem.invalidAccessToken
                }
            } else if body.guestToken != nil || request.headers[.authorization] != nil {
                guest = try await tokens.guest(request, bodyToken: body.guestToken?.revealed)
            }
            let step = try await engine.start(
                configId: configId, request: body, clientAddress: context.remoteAddress,
                userAgent: request.headers[Self.clientHeader] ?? request.headers[.userAgent], account: account,
                guest: guest, traceId: context.traceId)
            return try HTTPResponses.json(step, status: .created)
        }
        let flows = router.declaring(.flow).group("v1/flows")
        flows.get(":flowId") { request, context in
            let step = try await engine.current(
                flowId: try context.parameters.require("flowId"), flowToken: request.headers[Self.flowTokenHeader],
                configId: request.headers[Self.configIdHeader], traceId: context.traceId)
            return try HTTPResponses.json(step)
        }
        flows.delete(":flowId") { request, context in
            try await engine.cancel(
                flowId: try context.parameters.require("flowId"), flowToken: request.headers[Self.flowTokenHeader],
                configId: request.headers[Self.configIdHeader])
            return Response(status: .noContent)
        }
        flows.post(":flowId/method") { request, context in
            let body = try await RequestDecoding.json(SelectMethodRequest.self, from: request, context: context)
            return try HTTPResponses.json(try await engine.selectMethod(Self.target(request, context), methodId: body.methodID))
        }
        flows.post(":flowId/skip") { request, context in
            try HTTPResponses.json(try await engine.skip(Self.target(request, context)))
        }
        flows.post(":flowId/anotherMethod") { request, context in
            try HTTPResponses.json(try await engine.anotherMethod(Self.target(request, context)))
        }
        flows.post(":flowId/form") { request, context in
            let body = try await RequestDecoding.json([String: FormValue].self, from: request, context: context)
            return try HTTPResponses.json(
                try await engine.submitForm(Self.target(request, context), values: body.mapValues(\.text)))
        }
        flows.post(":flowId/signInInstead") { request, context in
            try HTTPResponses.json(try await engine.signInInstead(Self.target(request, context)))
        }
        flows.post(":flowId/stayGuest") { request, context in
            try await engine.stayGuest(Self.target(request, context))
            return Response(status: .noContent)
        }
        flows.post(":flowId/manage/:operation") { request, context in
            // Operations take no body, except revokeDevice ({"deviceId": …}), unlinkIdentity
            // ({"identityId": …}), renamePasskey ({"passkeyId": …, "name": …}), removePasskey and
            // endSession ({"sessionId": …}): a JSON object, which each operation reads as its
            // own input (a method's ``AccountOperationsMethod/Input``).
            let body = try await RequestDecoding.optionalJSON([String: JSONValue].self, from: request, context: context)
            return try HTTPResponses.json(
                try await engine.manage(
                    Self.target(request, context), operation: try context.parameters.require("operation"),
                    body: .object(body ?? [:])))
        }
        // Each method's own input, and the code step the code methods share.
        let routes = FlowInputRoutes(group: flows, engine: engine, router: router)
        FlowEngine.codeRoutes(routes)
        for method in engine.methods.families as [any FlowMethod] + engine.methods.all {
            method.routes(routes)
        }
    }

    static func target(_ request: Request, _ context: KeywayRequestContext) throws -> FlowEngine.Target {
        FlowEngine.Target(
            flowId: try context.parameters.require("flowId"), flowToken: request.headers[Self.flowTokenHeader],
            configId: request.headers[Self.configIdHeader], clientAddress: context.remoteAddress,
            traceId: context.traceId)
    }
}

/// A form answer: a string, or a boolean or number a client sent as JSON.
struct FormValue: Decodable, Sendable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            text = value
        } else if let value = try? container.decode(Bool.self) {
            text = value ? "true" : "false"
        } else if let value = try? container.decode(Double.self) {
            text = NumberText.decimal(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Send text, a boolean or a number.")
        }
    }
}
