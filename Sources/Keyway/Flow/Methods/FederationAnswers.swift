import Foundation
import KeywayJOSE
import KeywayProtocol

/// Signing in with an upstream provider: the answers to a
/// ``Prompt/redirect(url:returnScheme:provider:)`` prompt (the browser's return) and to a
/// ``Prompt/linkAccount(provider:identifierHint:)`` prompt.
extension FlowAction {
    static let callback = FlowAction(
        name: "callback", unavailableMessage: "This step is not waiting for the browser to come back from a provider.")
    static let continueLinking = FlowAction(
        name: "continue", unavailableMessage: "This step does not ask to sign in to link an account.")
}

extension ProblemCode {
    /// The URL (or code and state) handed to ``KeywayFlow/oauthCallback(url:)`` is not the
    /// browser's return for this flow: another scheme, another state, or no state (SDK-side code).
    public static let invalidCallback = ProblemCode(rawValue: "invalid_callback")
}

extension KeywayFlow {
    /// Hands the URL the browser came back with after a
    /// ``Prompt/redirect(url:returnScheme:provider:)`` prompt to the server, which finishes the
    /// sign-in with the provider; the flow then moves on (a second factor, the completion…).
    ///
    /// The URL is checked against the prompt first: its scheme must be the prompt's
    /// `returnScheme` and its `state` the one of the prompt's URL. Otherwise nothing is sent and
    /// the update is an error `invalid_callback` with `retryInput` (the flow stays at the
    /// prompt: a URL that is not this flow's return is ignored). The check is `RedirectCallback`'s.
    ///
    /// - Parameter url: The full URL the app received (`com.example.app://…?state=…`).
    public func oauthCallback(url: URL) async {
        await driver.oauthCallback(.url(url))
    }

    /// Hands the code and state of a provider's answer to the server, for an app that received
    /// them apart (a platform sign-in button), after a ``Prompt/redirect(url:returnScheme:provider:)``
    /// prompt. The state must be the one of the prompt's URL; otherwise nothing is sent and the
    /// update is an error `invalid_callback` with `retryInput`.
    ///
    /// - Parameters:
    ///   - code: The authorization code the provider gave.
    ///   - state: The state that came with it.
    public func oauthCallback(code: String, state: String) async {
        await driver.oauthCallback(.parts(code: code, state: state))
    }

    /// Goes on from a ``Prompt/linkAccount(provider:identifierHint:)`` prompt: the user signs in
    /// to the existing account the usual way (the next prompts), and the provider's identity is
    /// linked to it when the sign-in completes.
    public func continueLinking() async {
        await driver.perform(.continueLinking, parameters: [:])
    }
}

extension FlowDriver {
    /// What the app received back from the browser.
    enum ReceivedCallback: Sendable {
        case url(URL)
        case parts(code: String, state: String)
    }

    /// Checks `received` against the current `redirect` step, then sends it with the step's
    /// `callback` action.
    func oauthCallback(_ received: ReceivedCallback) async {
        guard let step = stepOffering(.callback), let action = step.action(named: FlowAction.callback.name) else { return }
        guard let redirect = step.payload.redirect else {
            emitLocalError(.actionUnavailable, action: .abort, message: FlowAction.callback.unavailableMessage)
            return
        }
        let callback: RedirectCallback
        do throws(RedirectCallbackError) {
            switch received {
            case .url(let url): callback = try RedirectCallback(url: url, for: redirect)
            case .parts(let code, let state): callback = try RedirectCallback(code: code, state: state, for: redirect)
            }
        } catch {
            logger.log(.notice, .flow, "a browser return that is not this flow's was refused")
            emitLocalError(
                .invalidCallback, action: .retryInput, message: error.description,
                field: InvalidField(name: error.field, reason: error.description))
            return
        }
        await perform(action: action, parameters: callback.parameters)
    }
}

/// The browser's return after a ``Prompt/redirect(url:returnScheme:provider:)`` prompt, checked
/// against the step it answers before anything is sent: the URL's scheme is the step's
/// `returnScheme`, and its `state` is the `state` of the step's provider URL (the state Keyway
/// gave the provider, which it hands back to the app). A URL with another scheme, without a
/// state, with a state given twice or with another state is refused, so that a link another app
/// or page opened cannot feed this flow.
struct RedirectCallback: Sendable, Equatable {
    /// What is sent to the server.
    enum Content: Sendable, Equatable {
        /// The full URL the app received.
        case url(URL)
        /// A code and state received apart.
        case code(Sensitive<String>, state: String)
    }

    /// What is sent to the server.
    let content: Content

    /// Checks a URL the app received against a `redirect` step's payload.
    ///
    /// - Parameters:
    ///   - url: The URL the app received.
    ///   - redirect: The payload of the `redirect` step it answers.
    /// - Throws: ``RedirectCallbackError`` when it is not that step's return.
    init(url: URL, for redirect: RedirectPayload) throws(RedirectCallbackError) {
        let expected = try Self.expectedState(of: redirect)
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == redirect.returnScheme.lowercased() else {
            throw .foreignScheme(expected: redirect.returnScheme.lowercased(), received: scheme)
        }
        let states = try Self.queryValues(named: "state", in: url)
        guard let state = states.first else { throw .missingState }
        guard states.count == 1 else { throw .malformed("state is given twice.") }
        guard ConstantTime.equals(state, expected) else { throw .stateMismatch }
        content = .url(url)
    }

    /// Checks a code and state the app received apart against a `redirect` step's payload.
    ///
    /// - Parameters:
    ///   - code: The provider's authorization code.
    ///   - state: The state that came with it.
    ///   - redirect: The payload of the `redirect` step it answers.
    /// - Throws: ``RedirectCallbackError`` when it is not that step's return.
    init(code: String, state: String, for redirect: RedirectPayload) throws(RedirectCallbackError) {
        let expected = try Self.expectedState(of: redirect)
        guard !state.isEmpty else { throw .missingState }
        guard ConstantTime.equals(state, expected) else { throw .stateMismatch }
        guard !code.isEmpty else { throw .missingCode }
        content = .code(Sensitive(code), state: state)
    }

    /// The body of the step's `callback` action: `url`, or `code` and `state`.
    var parameters: [String: String] {
        switch content {
        case .url(let url): ["url": url.absoluteString]
        case .code(let code, let state): ["code": code.revealed, "state": state]
        }
    }

    /// The state the step's provider URL carries: the one the browser must bring back.
    private static func expectedState(of redirect: RedirectPayload) throws(RedirectCallbackError) -> String {
        guard let url = URL(string: redirect.url), let state = try? queryValues(named: "state", in: url), state.count == 1,
            let only = state.first, !only.isEmpty
        else { throw .noExpectedState }
        return only
    }

    /// The decoded values of the query parameter `name` (`+` read as a space, as forms send it).
    private static func queryValues(named name: String, in url: URL) throws(RedirectCallbackError) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .malformed("it is not a URL.")
        }
        var values: [String] = []
        for item in components.percentEncodedQueryItems ?? [] {
            let itemName = item.name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? item.name
            guard itemName == name else { continue }
            guard let value = (item.value ?? "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                throw .malformed("\(name) is not percent-encoded UTF-8.")
            }
            values.append(value)
        }
        return values
    }
}

/// Why a URL (or a code and state) is not the browser's return for the current `redirect` step.
enum RedirectCallbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL's scheme is not the step's `returnScheme`.
    case foreignScheme(expected: String, received: String)
    /// The URL carries no `state`.
    case missingState
    /// The `state` is not the one this flow gave the provider.
    case stateMismatch
    /// No code came with the state.
    case missingCode
    /// The URL cannot be read (a parameter given twice, bad percent-encoding).
    case malformed(String)
    /// The step's provider URL carries no state to compare with: nothing can be accepted.
    case noExpectedState

    /// A sentence saying what is wrong.
    var description: String {
        switch self {
        case .foreignScheme(let expected, let received):
            "The browser came back to a \(received.isEmpty ? "URL without a scheme" : "\(received): URL"), not to \(expected): as this sign-in expects."
        case .missingState: "The browser came back without the sign-in's state."
        case .stateMismatch: "The browser came back with the state of another sign-in."
        case .missingCode: "The provider's answer has no code."
        case .malformed(let why): "The browser's return cannot be read: \(why)"
        case .noExpectedState: "This sign-in's provider URL carries no state, so no return can be checked."
        }
    }

    /// The name of what is wrong, as the `invalidFields` of the local error.
    var field: String {
        switch self {
        case .missingCode: "code"
        case .missingState, .stateMismatch: "state"
        default: "url"
        }
    }
}
