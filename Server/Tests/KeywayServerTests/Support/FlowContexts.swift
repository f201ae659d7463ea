import Crypto
import Foundation
import KeywayProtocol

@testable import KeywayServer

/// Flow contexts for unit tests of the engine's parts and the method modules, without a database.
enum FlowContexts {
    static let now: Int64 = 1_795_000_000_000
    static let secrets = SecretBox(key: SymmetricKey(size: .bits256))
    static let resources = StepResources(limits: FlowLimits(), secrets: secrets)

    static let application = ApplicationRecord(
        id: "app_1", projectId: "prj_1", configId: "cfg_1", name: "Shop", clientType: .public, clientSecretHash: nil,
        flowTypes: [.signin, .signup, .accountManage], autoCreateUsers: false, isDev: false, createdAt: 0)

    static func user(
        email: String? = "ann@example.com", emailVerified: Bool = true, phone: String? = nil, password: Bool = false,
        totp: Bool = false
    ) -> UserRecord {
        UserRecord(
            id: "usr_1", projectId: "prj_1", email: email, emailVerified: emailVerified, createdAt: 0, phone: phone,
            phoneVerified: phone != nil, passwordHash: password ? "hash" : nil,
            totpSecret: totp ? (try? secrets.seal(OneTimePassword.newSecret(), purpose: "totp")) : nil)
    }

    /// A context for `identifier` at `stage`, in `mode` (a sign-in by default).
    static func context(
        identifier: String = "ann@example.com", user: UserRecord? = user(), policy: FlowPolicy = FlowPolicy(),
        mode: FlowProgress.Mode = .signIn(FlowProgress.SignIn()),
        stage: FlowProgress.Stage = .choosing(MethodChoice(options: [], purpose: .primary))
    ) -> FlowEngine.Context {
        let flow = FlowRecord(
            id: "flw_1", applicationId: application.id, flowType: .signin, identifier: identifier, userId: user?.id,
            state: .awaitingCode, tokenHash: "", codeChallenge: "", otpHash: nil, otpExpiresAt: now + 600_000,
            resendAt: now + 30_000, resendCount: 0, failedAttempts: 1, sessionId: nil, createdAt: now,
            expiresAt: now + 900_000, updatedAt: now)
        return FlowEngine.Context(
            flow: flow, progress: FlowProgress(mode: mode, stage: stage), application: application, policy: policy,
            user: user, now: now, audience: "https://id.example.com")
    }

    /// The step `method` draws for `active` in `context`.
    static func step(_ method: any FlowMethod, _ active: ActiveMethod, _ context: FlowEngine.Context) -> StepDraft {
        var draft = StepDraft(base: "/v1/flows/flw_1", payload: .none(.selectMethod))
        method.step(for: active, context, into: &draft, using: resources)
        return draft
    }
}
