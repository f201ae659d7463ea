import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport

extension FlowUpdate {
    /// The enterCode prompt's fields, if this is one.
    var enterCode: (destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel)? {
        guard case .prompt(_, let prompt) = self else { return nil }
        return prompt.enterCode
    }

    var promptContext: PromptContext? {
        if case .prompt(let context, _) = self { return context }
        return nil
    }

    /// The error's code and action, if this is one.
    var errorInfo: (code: ProblemCode, action: ProblemAction, details: Problem?)? {
        if case .error(let code, let action, _, _, let details, _) = self { return (code, action, details) }
        return nil
    }

    /// The completion's values, if this is one.
    var completion: (session: String, authCode: Sensitive<String>, codeVerifier: Sensitive<String>?)? {
        if case .completed(let session, let authCode, _, let codeVerifier, _) = self {
            return (session, authCode, codeVerifier)
        }
        return nil
    }
}

/// An SDK pointed at a test server, sharing its clock. Completed sign-ins are handed over by
/// default, so a test redeems the code itself (`keyway.tokens.exchange`) and sees each request;
/// the tests of the SDK's own saving pass `.saveToSession`.
func makeKeyway(
    _ server: TestServer, clock: ManualClock, baseURL: URL? = nil, completedSignIns: CompletedSignIns = .handOver
) throws -> KeywayClient {
    try KeywayClient(
        configID: TestServer.configId, baseURL: baseURL ?? server.baseURL,
        options: KeywayOptions(completedSignIns: completedSignIns, transport: URLSessionTransport.patient, clock: clock))
}
