import Foundation
import KeywayProtocol

/// A method's input that does slow work between transactions (a password's hash, which must not
/// hold the flow's write transaction): it reads the flow, writes what must be counted before the
/// work starts, then finishes in the flow's usual request cycle. Every stage runs only while the
/// flow is open and at the method's stage, with a ``MethodContext`` of it.
///
/// A method registers one with ``FlowInputRoutes/staged(_:of:as:_:)``.
struct StagedMethodInput: Sendable {
    /// The method the input is for.
    let method: FlowMethodID
    fileprivate let target: FlowEngine.Target
    fileprivate let engine: FlowEngine

    /// The client's network, hashed (what limits and risk key on), when known.
    var clientNetwork: String? { target.clientAddress.map(ClientAddress.hash) }

    /// What the methods need from the server, by key (each method reads its own).
    var dependencies: MethodDependencies { engine.dependencies }

    /// Reads the flow at the method's stage; changes nothing.
    func read<Value: Sendable>(_ body: @Sendable @escaping (MethodContext) throws -> Value) async throws -> Value {
        let now = engine.clock.now().epochMilliseconds
        let engine = self.engine, target = self.target, method = self.method
        return try await engine.database.read { repositories in
            let methodContext = try await Self.context(method, target: target, engine: engine, now: now, in: repositories)
            return try body(methodContext)
        }
    }

    /// Writes the flow at the method's stage in a transaction of its own, answering what `body`
    /// answers; only the flow's record is written (no message, no event). `body`'s failure is
    /// written too; what it throws rolls the transaction back.
    func write<Value: Sendable>(
        _ body: @Sendable @escaping (inout MethodContext) async throws -> Result<Value, FlowProblem>
    ) async throws -> Value {
        let now = engine.clock.now().epochMilliseconds
        let engine = self.engine, target = self.target, method = self.method
        let outcome: Result<Value, FlowProblem> = try await engine.database.write { repositories in
            var methodContext = try await Self.context(method, target: target, engine: engine, now: now, in: repositories)
            let outcome = try await body(&methodContext)
            var flow = methodContext.context.flow
            flow.progress = methodContext.context.progress
            flow.updatedAt = now
            try await repositories.flows.update(flow)
            return outcome
        }
        return try outcome.get()
    }

    /// Finishes in the flow's request cycle (``FlowEngine/run(_:_:)``): `body` answers a problem
    /// to refuse with, or `nil` for the flow's next step.
    func finish(_ body: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?) async throws -> Step {
        let engine = self.engine, method = self.method
        return try await engine.run(target) { flow, repositories in
            guard let active = flow.progress.active(method) else { throw FlowProblem.invalidStep }
            return try await engine.withMethod(method, purpose: active.purpose, &flow, in: repositories, body)
        }
    }

    /// Finishes as ``finish(_:)`` does, wherever the flow is: `body` checks the stage itself (a
    /// provider's callback, whose second delivery finds the flow moved on and answers its step).
    /// The context is at the method's stage when the flow is there, else at none.
    func finishWherever(_ body: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?) async throws
        -> Step
    {
        let engine = self.engine, method = self.method
        return try await engine.run(target) { flow, repositories in
            let purpose = flow.progress.active(method)?.purpose ?? .primary
            return try await engine.withMethod(method, purpose: purpose, &flow, in: repositories, body)
        }
    }

    /// The flow's context at the method's stage, refused when the flow is closed or elsewhere.
    private static func context(
        _ method: FlowMethodID, target: FlowEngine.Target, engine: FlowEngine, now: Int64, in repositories: Repositories
    ) async throws -> MethodContext {
        var context = try await engine.load(
            flowId: target.flowId, flowToken: target.flowToken, configId: target.configId, now: now, in: repositories)
        if let problem = engine.openProblem(context.flow, now: now) { throw problem }
        guard let active = context.progress.active(method) else { throw FlowProblem.invalidStep }
        context.addressHash = target.clientAddress.map(ClientAddress.hash)
        return MethodContext(method: method, purpose: active.purpose, flow: context, engine: engine, repositories: repositories)
    }
}

/// Makes the ``StagedMethodInput`` of a method a route learns from its request (a provider's
/// callback names its provider in its state).
struct StagedInputs: Sendable {
    fileprivate let engine: FlowEngine

    /// The staged input of `method` for the request to `target`.
    func input(for method: FlowMethodID, target: FlowEngine.Target) -> StagedMethodInput {
        StagedMethodInput(method: method, target: target, engine: engine)
    }

    /// The flow's current step, changing nothing (a second delivery of an answer already taken).
    func currentStep(_ target: FlowEngine.Target) async throws -> Step {
        try await engine.run(target) { _, _ in nil }
    }
}

extension FlowInputRoutes {
    /// What makes the staged inputs of methods learned from a request.
    var stagedInputs: StagedInputs { StagedInputs(engine: engine) }

    /// Registers `POST /v1/flows/{flowId}/{path}` for a staged input of `method`: the JSON body
    /// read as `Body` (refused with `invalid_request` when it is not), then `handler` with the
    /// ``StagedMethodInput`` that runs its stages.
    func staged<Body: Decodable & Sendable>(
        _ path: String, of method: FlowMethodID, as body: Body.Type,
        _ handler: @Sendable @escaping (Body, StagedMethodInput) async throws -> Step
    ) {
        let engine = self.engine
        post(path) { request, context, target in
            let body = try await RequestDecoding.json(Body.self, from: request, context: context)
            return try await handler(body, StagedMethodInput(method: method, target: target, engine: engine))
        }
    }
}
