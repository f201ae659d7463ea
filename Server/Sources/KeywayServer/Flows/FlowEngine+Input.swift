import Foundation
import KeywayProtocol

/// The answers the engine takes itself — a method choice, skipping, the sign-up form — and the
/// request cycle the methods' own input runs in.
extension FlowEngine {
    /// Where a request comes from and which flow it names.
    struct Target: Sendable {
        let flowId: String
        let flowToken: String?
        let configId: String?
        var clientAddress: String? = nil
        let traceId: String
        /// The client's `User-Agent`, when sent.
        var userAgent: String? = nil
    }

    /// Runs one request on an open flow (``mutate(flowId:flowToken:configId:clientAddress:traceId:_:)``).
    func run(
        _ target: Target, _ body: @Sendable @escaping (inout Context, Repositories) async throws -> FlowProblem?
    ) async throws -> Step {
        try await mutate(
            flowId: target.flowId, flowToken: target.flowToken, configId: target.configId,
            clientAddress: target.clientAddress, traceId: target.traceId, body)
    }

    // MARK: Choosing

    /// Chooses one of the methods a `selectMethod` step offers.
    func selectMethod(_ target: Target, methodId: String) async throws -> Step {
        let preparation = MethodPreparation(flowId: target.flowId, database: database, dependencies: dependencies)
        for preparing in methods.preparingMethods {
            await preparing.prepare(toBegin: AuthenticationMethod(rawValue: methodId), preparation)
        }
        return try await run(target) { context, repositories in
            guard case .choosing(let choice) = context.progress.stage else { throw FlowProblem.invalidStep }
            let method = AuthenticationMethod(rawValue: methodId)
            guard choice.options.contains(method) else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "methodId", reason: "Choose one of the methods offered.")
                ])
            }
            try await self.begin(method, purpose: choice.purpose, &context, in: repositories)
            if case .method = context.progress.stage, choice.options.count > 1 {
                context.progress.chosenFrom = choice
            }
            return nil
        }
    }

    /// Leaves the current method for the choice it was chosen from ("Use another method"). What
    /// the method counted stays counted (wrong answers, codes sent).
    func anotherMethod(_ target: Target) async throws -> Step {
        try await run(target) { context, _ in
            guard let choice = self.alternatives(context) else { throw FlowProblem.invalidStep }
            context.progress.stage = .choosing(choice)
            context.progress.chosenFrom = nil
            return nil
        }
    }

    /// Skips an optional second factor, or a method's step that can be skipped (a device step).
    func skip(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            switch context.progress.stage {
            case .method(let active):
                guard let module = self.methods.module(active.method, as: (any SkippableMethod).self) else {
                    throw FlowProblem.invalidStep
                }
                return try await self.withMethod(module.id, purpose: active.purpose, &context, in: repositories) {
                    try await module.skip(&$0)
                }
            case .choosing(let choice):
                guard choice.skippable else { throw FlowProblem.invalidStep }
                context.progress.secondFactorSkipped = true
                return try await self.advance(&context, in: repositories)
            case .form, .manageAccount, .accountExists:
                throw FlowProblem.invalidStep
            }
        }
    }

    // MARK: Forms

    /// Takes the answers of a `form` step, checked field by field.
    func submitForm(_ target: Target, values: [String: String]) async throws -> Step {
        try await run(target) { context, repositories in
            guard context.progress.stage == .form, var draft = context.progress.signUpDraft else {
                throw FlowProblem.invalidStep
            }
            let (answers, problems) = SignupForm.check(values, policy: context.policy)
            if !problems.isEmpty { throw FlowProblem.invalidRequest(problems) }
            draft.profile = answers
            context.progress.signUpDraft = draft
            return try await self.advance(&context, in: repositories)
        }
    }
}
