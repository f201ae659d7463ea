import Foundation
import KeywayProtocol

/// A method whose step is a one-time code sent to a destination (email, SMS). The code step —
/// sending, checking, resending, its limits — is shared (``FlowEngine/sendCode(_:purpose:to:deliverable:_:in:)``);
/// each method says where its codes go and what a right code proves.
protocol CodeMethod: FlowMethod {
    /// Where its codes go.
    var channel: CodeChannel { get }
    /// A right code was entered on its stage: record what it proves and move on.
    func codeAccepted(
        _ active: ActiveMethod, destination: String, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem?
}

/// The state of a code method's stage. Every member is optional, so a stage written by another
/// release decodes.
struct CodeStage: Codable, Sendable, Equatable {
    /// Where the current code went, normalized; `nil` while the destination is still to be given
    /// (a phone number being set up).
    var destination: String?
    /// The destination gets notices, never codes (a phone number another account has).
    var withheld: Bool?
}
