import Foundation
import KeywayProtocol

@testable import KeywayServer

/// A method the server does not have, written as a method's folder is: the word of the day, a
/// way in for accounts whose users were told a word. It shows what adding a method takes — this
/// folder and one registry line (``WordOfTheDayTests``) — and nothing in `Flows/`: its stage and
/// input go through ``MethodContext`` (it never sees the engine), its step is an open kind the SDK
/// renders as `unrecognized`, and its dependency (the word) is its own.
struct WordOfTheDayMethod: PrimaryMethod {
    static let id = FlowMethodID(rawValue: "wordOfTheDay")
    /// Its step's kind.
    static let kind = StepKind(rawValue: "enterWord")

    /// The word that proves the user was told it.
    let word: String

    var id: FlowMethodID { Self.id }

    /// Only users with an account were told the word.
    var worksWithoutEnrolment: Bool { false }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { true }

    /// Who was told the word is not recorded: it never counts as an account's remaining way in.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool { false }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: "Enter the word of the day")
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        try method.keep(WordStage(shownAt: method.now))
    }

    func step(
        for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources
    ) {
        draft.info = StepInfo(id: Self.kind.rawValue, label: "Enter the word of the day")
        draft.payload = .none(Self.kind)
        draft.post(
            "submitWord", "word", label: "Continue",
            fields: [Field(name: "word", type: .text, required: true, label: "Word", maxLength: 64)])
    }

    func routes(_ routes: FlowInputRoutes) {
        let word = self.word
        routes.input("word", of: id, as: WordAnswer.self) { answer, method in
            _ = try method.state(as: WordStage.self)
            try await method.countCheck()
            guard answer.word.trimmingCharacters(in: .whitespaces).lowercased() == word else {
                return try await method.refuse()
            }
            // RFC 8176: knowledge-based authentication.
            return try await method.prove(amr: "kba")
        }
    }
}

/// The state of its stage.
struct WordStage: Codable, Sendable, Equatable {
    /// When the step was first shown.
    var shownAt: Int64
}

/// Its input.
struct WordAnswer: Decodable, Sendable {
    var word: String
}
