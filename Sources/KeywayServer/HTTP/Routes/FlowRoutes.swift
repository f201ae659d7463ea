import HTTPTypes
import Hummingbird
import KeywayProtocol

/// The flow API under `/v1/flows`.
struct FlowRoutes {
    let engine: FlowEngine

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configId)!
    private static let flowTokenHeader = HTTPField.Name(ProtocolHeader.flowToken)!

    func register(on router: Router<KeywayRequestContext>) {
        let flows = router.group("v1/flows")
        flows.post { request, context in
            let body = try await RequestDecoding.json(StartFlowRequest.self, from: request, context: context)
            let step = try await engine.start(
                configId: request.headers[Self.configIdHeader], request: body, clientAddress: context.remoteAddress,
                traceId: context.traceId)
            return try HTTPResponses.json(step, status: .created)
        }
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
        flows.post(":flowId/code") { request, context in
            let body = try await RequestDecoding.json(SubmitCodeRequest.self, from: request, context: context)
            let step = try await engine.submitCode(
                flowId: try context.parameters.require("flowId"), flowToken: request.headers[Self.flowTokenHeader],
                configId: request.headers[Self.configIdHeader], code: body.code.revealed, traceId: context.traceId)
            return try HTTPResponses.json(step)
        }
        flows.post(":flowId/resend") { request, context in
            let step = try await engine.resend(
                flowId: try context.parameters.require("flowId"), flowToken: request.headers[Self.flowTokenHeader],
                configId: request.headers[Self.configIdHeader], traceId: context.traceId)
            return try HTTPResponses.json(step)
        }
    }
}
