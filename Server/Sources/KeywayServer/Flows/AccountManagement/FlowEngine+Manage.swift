import Foundation
import KeywayJOSE
import KeywayProtocol

/// Account management: a signed-in user sees their methods and runs the operations the methods
/// offer (``FlowMethod/manageOperations(_:)``: set up, replace or remove a second factor, change
/// the password, stop trusting devices), then finishes. Every operation that weakens the account
/// (``ManageOperation/needsReverification``), and finishing, first asks the user to prove who
/// they are again; one verification covers further changes for ``reverificationLifetime``.
extension FlowEngine {
    /// The operation that ends the flow with an authorization code for the token's session.
    static let finishOperation = ManageOperation(name: "finish", label: "Done", needsReverification: true)

    /// How long a fresh verification covers further changes in the same flow.
    static let reverificationLifetime: Int64 = 5 * 60 * 1000

    /// Starts an `accountManage` flow for the user an access token named. The code it ends with is
    /// for the token's session and at most the token's scope, and only after a fresh verification.
    func startManaging(
        application: ApplicationRecord, policy: FlowPolicy, account: Account,
        request: StartFlowRequest, authorization: FlowProgress.AuthorizationParameters? = nil, clientAddress: String?,
        now: Int64, traceId: String
    ) async throws -> Step {
        let userId = account.userId
        let sessionId = account.sessionId
        let flowId = SecureRandom.identifier(prefix: "flw")
        let flowToken = SecureRandom.token(prefix: "kft")
        return try await database.write { repositories in
            guard let user = try await repositories.users.find(id: userId), user.projectId == application.projectId
            else { throw FlowProblem.invalidAccessToken }
            if user.isBlocked { throw FlowProblem.userBlocked }
            var progress = FlowProgress(
                mode: .manage(FlowProgress.Management(grantedScope: account.scope)), stage: .manageAccount)
            // The code's scope stays the one the access token was granted; its nonce, redirect
            // URI and state are the client's.
            progress.authorization = authorization
            let flow = FlowRecord(
                id: flowId, applicationId: application.id, flowType: .accountManage,
                identifier: user.email ?? user.phone ?? user.id, userId: user.id, state: .awaitingCode,
                tokenHash: sha256Hex(flowToken), codeChallenge: request.codeChallenge, otpHash: nil, otpExpiresAt: nil,
                resendAt: nil, resendCount: 0, failedAttempts: 0, sessionId: sessionId, createdAt: now,
                expiresAt: now + self.milliseconds(self.limits.flowLifetime), updatedAt: now, progress: progress)
            try await repositories.flows.insert(flow)
            var context = Context(
                flow: flow, progress: progress, application: application, policy: policy, user: user, now: now,
                addressHash: clientAddress.map(ClientAddress.hash), audience: self.issuer())
            context.usesDeviceActivation =
                try await repositories.powerAuthApplications.find(applicationId: application.id) != nil
            try await self.loadFamilies(&context, in: repositories)
            try await self.loadMethodData(&context, in: repositories)
            try await self.loadSessions(&context, in: repositories)
            return self.steps.step(for: context, flowToken: Sensitive(flowToken), traceId: traceId)
        }
    }

    /// The operations open to the user now, each with the method that runs it (`nil`: the
    /// engine's own: a code for another device, finishing).
    static func operations(_ context: Context, methods: MethodRegistry)
        -> [(operation: ManageOperation, method: (any AccountOperationsMethod)?)]
    {
        var operations: [(ManageOperation, (any AccountOperationsMethod)?)] = []
        if context.user != nil {
            for method in methods.all((any AccountOperationsMethod).self) {
                operations += method.manageOperations(context).map { ($0, method) }
            }
            if context.usesDeviceActivation { operations.append((activationCodeOperation, nil)) }
            for family in methods.accountOperationFamilies {
                operations += family.manageOperations(context).map { ($0, family) }
            }
            operations += sessionOperations(context).map { ($0, nil) }
        }
        operations.append((finishOperation, nil))
        return operations
    }

    /// Runs an operation of the `manageAccount` step, after a fresh verification when it
    /// weakens the account.
    func manage(_ target: Target, operation name: String, body: JSONValue = .object([:])) async throws -> Step {
        let input = try ManageInput(body)
        let known =
            accountOperationMethods.contains { $0.manageOperationNames.contains(name) }
            || [
                Self.finishOperation.name, Self.activationCodeOperation.name, Self.endSessionOperation.name,
                Self.endOtherSessionsOperation.name,
            ]
                .contains(name)
        guard known else {
            throw FlowProblem.invalidRequest([InvalidField(name: "operation", reason: "No such operation.")])
        }
        return try await run(target) { context, repositories in
            guard context.progress.isManage, context.progress.stage == .manageAccount else {
                throw FlowProblem.invalidStep
            }
            guard let (operation, method) = Self.operations(context, methods: self.methods).first(where: { $0.operation.name == name }) else {
                throw FlowProblem.invalidStep
            }
            if let method {
                try await self.withMethod(method.id, purpose: .enrolment, &context, in: repositories) {
                    try method.precheck(name, body: body, $0)
                }
            }
            context.progress.notice = nil
            context.progress.management?.issuedActivationCode = nil
            if operation.needsReverification, !self.recentlyVerified(context) {
                let options = self.reverificationOptions(context)
                guard !options.isEmpty else { throw FlowProblem.methodUnavailable }
                context.progress.management?.pendingOperation = name
                // Only what the operation reads waits in the flow, never the rest of the body.
                context.progress.management?.pendingInput =
                    try method.map { try $0.readInput(body) } ?? JSONValue.encoding(input)
                try await self.offer(options, purpose: .reverification, skippable: false, &context, in: repositories)
                return nil
            }
            return try await self.perform(name, body: body, &context, in: repositories)
        }
    }

    /// The methods that run account operations: the registered ones, then the families.
    private var accountOperationMethods: [any AccountOperationsMethod] {
        methods.all((any AccountOperationsMethod).self) + methods.accountOperationFamilies
    }

    private func recentlyVerified(_ context: Context) -> Bool {
        guard let at = context.progress.reverifiedAt else { return false }
        return context.now - at < Self.reverificationLifetime
    }

    /// Carries out the operation that waited for a verification.
    func runPendingOperation(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        guard let name = context.progress.management?.pendingOperation, context.user != nil else {
            context.progress.stage = .manageAccount
            return nil
        }
        let body = context.progress.management?.pendingInput ?? .object([:])
        context.progress.management?.pendingOperation = nil
        context.progress.management?.pendingInput = nil
        return try await perform(name, body: body, &context, in: repositories)
    }

    /// Runs `name` with the method that offers it; the flow is back at the account's methods
    /// unless the operation moved it on (a method to set up, a password to choose, completion).
    private func perform(_ name: String, body: JSONValue, _ context: inout Context, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        let input = try ManageInput(body)
        if name == Self.finishOperation.name { return try await complete(&context, in: repositories) }
        if name == Self.activationCodeOperation.name {
            try await issueActivationCode(&context, in: repositories)
            return nil
        }
        if [Self.endSessionOperation.name, Self.endOtherSessionsOperation.name].contains(name) {
            return try await endSessions(name, input.sessionId, &context, in: repositories)
        }
        guard let method = accountOperationMethods.first(where: { $0.manageOperationNames.contains(name) })
        else {
            throw FlowProblem.invalidStep
        }
        context.progress.stage = .manageAccount
        return try await withMethod(method.id, purpose: .enrolment, &context, in: repositories) {
            try await method.manage(name, body: body, &$0)
        }
    }

    /// Whether `removing` may go: under a required second factor, the account keeps at least one.
    func keepsASecondFactor(without removing: AuthenticationMethod, _ context: Context) -> Bool {
        guard context.policy.mfaMode == .required else { return true }
        return !enrolledSecondFactors(context).filter { $0 != removing }.isEmpty
    }
}

/// What account management's own operations read from an operation's body: the session
/// `endSession` signs out. A method's operations read their own (``AccountOperationsMethod/Input``).
struct ManageInput: Sendable, Equatable, Codable {
    var sessionId: String?

    init(sessionId: String? = nil) {
        self.sessionId = sessionId
    }

    /// Reads an operation's body.
    init(_ body: JSONValue) throws {
        do {
            self = try body.decoding(ManageInput.self)
        } catch let error as DecodingError {
            throw FlowProblem.invalidRequest([RequestDecoding.invalidField(for: error)])
        }
    }
}
