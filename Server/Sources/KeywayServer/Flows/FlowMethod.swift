import Foundation
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The ID of a method module: the ``AuthenticationMethod`` it provides (the wire value a choice
/// offers), or a server-side one for a module that is never chosen (``trustedDevice``).
typealias FlowMethodID = AuthenticationMethod

extension AuthenticationMethod {
    /// A trusted device proving itself with its key: offered by the engine, never chosen.
    static let trustedDevice = AuthenticationMethod(rawValue: "trustedDevice")
}

/// One authentication method, in one folder under `Methods/`: the choice that offers it, the
/// stage it moves the flow to (its own `Codable` state inside ``ActiveMethod``), the step it shows
/// there and the input it accepts (its routes). These five are what every method says; what a
/// method can also be — a way in, a second factor, a credential a sign-up sets up, an offer
/// before a sign-in completes, account operations, … — it declares by conforming to the
/// capability protocols (`MethodCapabilities.swift`), each of which asks for all it needs, so
/// nothing is left to a default that fails at run time. The engine (``FlowEngine``) knows only
/// the sequence (``FlowSequence``) and asks the methods of its ``MethodRegistry``.
///
/// Adding a method: a folder with a type conforming to this protocol and its capabilities, and
/// one line in a registry (``MethodRegistry/standard`` for the server's own).
protocol FlowMethod: Sendable {
    /// The module's ID, stored in flow state.
    var id: FlowMethodID { get }
    /// The choice offering it for `purpose`.
    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption
    /// Moves the flow to its stage for `purpose` (``MethodContext/keep(_:)`` its state, or send a
    /// code where it needs one).
    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws
    /// Fills in the step of its stage.
    func step(
        for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources)
    /// Registers the routes of its input (`POST /v1/flows/{id}/…`).
    func routes(_ routes: FlowInputRoutes)
}

/// An operation a `manageAccount` step offers: an action of the step (`POST manage/{name}`).
struct ManageOperation: Sendable, Equatable {
    var name: String
    var label: String
    /// Whether it weakens the account (removing or replacing a method, a new password), so the
    /// user proves again who they are first.
    var needsReverification: Bool
    /// The action's fields (the device to revoke).
    var fields: [Field] = []
}

/// What a method needs to draw its step: the flow limits (code length, attempts) and the box that
/// opens the secrets its state keeps sealed.
struct StepResources: Sendable {
    let limits: FlowLimits
    let secrets: SecretBox
}

/// A step being built: its payload, label, actions and messages. ``StepBuilder`` adds what every
/// step has (the `self` link, notices, `cancel`).
struct StepDraft: Sendable {
    /// `/v1/flows/{id}`, the base of every action's `href`.
    let base: String
    var payload: StepPayload
    var info: StepInfo?
    var actions: [Action] = []
    var messages: [Message] = []

    /// Adds a `POST` action on `base/path`.
    mutating func post(_ name: String, _ path: String, label: String, fields: [Field] = []) {
        actions.append(Action(name: name, href: "\(base)/\(path)", method: "POST", label: label, fields: fields))
    }
}

/// The routes a method registers for its input: `POST /v1/flows/{flowId}/{path}`, each handed the
/// request's ``FlowEngine/Target``; and, through ``router``, the few of its own outside the flow
/// API (where a provider sends the browser back), each declaring who may call it.
struct FlowInputRoutes {
    let group: RouterGroup<KeywayRequestContext>
    let engine: FlowEngine
    /// The server's route table, for a method's routes outside `/v1/flows`.
    let router: RouteTable

    func post(
        _ path: String,
        _ handler: @Sendable @escaping (Request, KeywayRequestContext, FlowEngine.Target) async throws -> Step
    ) {
        group.post(":flowId/\(path)") { request, context in
            try HTTPResponses.json(try await handler(request, context, FlowRoutes.target(request, context)))
        }
    }
}
