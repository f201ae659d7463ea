import Foundation
import KeywayProtocol

/// A method whose step is a one-time code sent to a destination (email, SMS). The code step —
/// sending, checking, resending, its limits — is shared (``FlowEngine/sendCode(_:purpose:to:deliverable:_:in:)``);
/// each method says where its codes go and what a right code proves.
protocol CodeMethod: FlowMethod {
    /// Where its codes go.
    var channel: CodeChannel { get }
    /// The channel a code to `destination` goes by: ``channel`` unless the method serves more
    /// than one (a sign-in link goes by email or SMS).
    func channel(for destination: String) -> CodeChannel
    /// A right code to `destination` was entered on its stage: record what it proves and move on.
    func codeAccepted(destination: String, _ method: inout MethodContext) async throws -> FlowProblem?
    /// The message carrying `code` when the method sends more than the code (a sign-in link),
    /// with whatever it keeps for it written; `nil` for the code message alone.
    func codeMessage(code: String, to destination: String, _ method: inout MethodContext) async throws
        -> (subject: String, body: String)?
}

extension CodeMethod {
    func channel(for destination: String) -> CodeChannel { channel }

    func codeMessage(code: String, to destination: String, _ method: inout MethodContext) async throws
        -> (subject: String, body: String)?
    { nil }
}

/// The state of a code method's stage. Every member is optional, so a stage written by another
/// release decodes.
struct CodeStage: Codable, Sendable, Equatable {
    /// Where the current code went, normalized; `nil` while the destination is still to be given
    /// (a phone number being set up).
    var destination: String?
    /// The destination gets notices, never codes (a phone number another account has).
    var withheld: Bool?
    /// When the client last polled the step (a sign-in link's), in milliseconds since 1970.
    var lastPolledAt: Int64?
}
