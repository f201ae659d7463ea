import Foundation
import KeywayProtocol

/// A sentence on a screen.
public struct ScreenMessage: Sendable, Equatable {
    /// How much the sentence matters.
    public enum Level: String, Sendable, Equatable {
        /// News (`We sent a code`).
        case info
        /// Something to heed (a risky attempt, a session that could not be saved).
        case warning
        /// Something went wrong.
        case error
    }

    /// How much the sentence matters.
    public var level: Level
    /// The stable code of the sentence, when it has one (`codeSent`, `risk`, `codeResent`).
    public var code: String?
    /// The sentence.
    public var text: String

    /// A sentence of `level`, with its stable `code` when it has one.
    ///
    /// - Parameters:
    ///   - level: How much the sentence matters.
    ///   - code: The stable code of the sentence, if any.
    ///   - text: The sentence.
    public init(level: Level, code: String? = nil, text: String) {
        self.level = level
        self.code = code
        self.text = text
    }
}

extension ScreenMessage {
    /// A message of the step, as the server sent it.
    ///
    /// - Parameter message: The step's message.
    public init(_ message: Message) {
        self.init(level: Level(rawValue: message.level) ?? .info, code: message.code, text: message.text)
    }
}
