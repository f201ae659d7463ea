import Foundation
import KeywayProtocol

/// A button of a screen.
public struct ScreenAction: Sendable, Equatable, Identifiable {
    /// What the button does.
    public enum Role: String, Sendable, Equatable {
        /// Submits the screen's inputs.
        case primary
        /// Another way on (a method to choose, resend, skip).
        case secondary
        /// Leaves the flow.
        case cancel
        /// Starts again after the flow ended.
        case restart
        /// Opens ``Screen/browser``'s URL in a browser (sign in with another provider): the
        /// renderer does it, then hands the URL the browser came back with to
        /// `KeywayScreenModel.oauthCallback(url:)`.
        case openBrowser
    }

    /// A stable ID (`submitCode`, `selectMethod:totp`, `resend`, `cancel`).
    public let id: String
    /// The button's text.
    public var label: String
    /// What the button does.
    public var role: Role
    /// The server action it performs (`nil` for ``Role/restart``).
    public var actionName: String?
    /// Values it sends besides the inputs (the method of a choice).
    public var parameters: [String: String]
    /// Whether it sends the screen's inputs.
    public var submitsInputs: Bool
    /// The inputs it sends, by name, when only some of the screen's (an account operation sends
    /// its own fields); `nil`: all of them (see ``Screen/inputs(of:)``).
    public var inputNames: [String]?
    /// It is enabled from this moment on (a new code).
    public var availableAt: Date?
    /// An icon to draw on the button (an upstream provider's logo, `https`), if any.
    public var iconURL: URL?

    /// A button; it sends no inputs unless `submitsInputs`.
    ///
    /// - Parameters:
    ///   - id: A stable ID.
    ///   - label: The button's text.
    ///   - role: What the button does.
    ///   - actionName: The server action it performs; `nil` for ``Role/restart``.
    ///   - parameters: Values it sends besides the inputs.
    ///   - submitsInputs: Whether it sends the screen's inputs.
    ///   - inputNames: The inputs it sends, when only some; `nil` for all of them.
    ///   - availableAt: When it becomes enabled, if not yet.
    ///   - iconURL: An icon to draw on the button, if any.
    public init(
        id: String, label: String, role: Role, actionName: String?, parameters: [String: String] = [:],
        submitsInputs: Bool = false, inputNames: [String]? = nil, availableAt: Date? = nil, iconURL: URL? = nil
    ) {
        self.id = id
        self.label = label
        self.role = role
        self.actionName = actionName
        self.parameters = parameters
        self.submitsInputs = submitsInputs
        self.inputNames = inputNames
        self.availableAt = availableAt
        self.iconURL = iconURL
    }
}
