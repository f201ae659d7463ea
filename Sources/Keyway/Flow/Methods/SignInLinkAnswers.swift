import Foundation
import KeywayProtocol

/// Sign-in links: the app opened with the link the server sent beside a code (an `enterCode`
/// prompt whose payload has `linkSent`).
extension FlowAction {
    static let openLink = FlowAction(name: "openLink", unavailableMessage: "This step did not send a sign-in link.")
}

extension KeywayFlow {
    /// Completes an `enterCode` step with the sign-in link the app was opened with (its universal
    /// link or custom scheme): the link's token — the last segment of its path — goes to the
    /// server, which spends it once. A link of another sign-in answers `invalid_link`, a used one
    /// `link_used`, an expired one `code_expired`; the code in the same message still works.
    ///
    /// A URL without a token gives a local `invalid_link` error without a request.
    ///
    /// - Parameter url: The URL the app was opened with.
    public func openLink(_ url: URL) async {
        guard let token = SignInLink.token(of: url) else {
            await driver.rejectLocally(
                .invalidLink, action: .retryInput, message: "This is not a sign-in link: it carries no token.")
            return
        }
        await driver.perform(.openLink, parameters: ["token": token])
    }
}

/// Reading a sign-in link.
enum SignInLink {
    /// The token of a sign-in link: the last segment of its path, of the server's token alphabet.
    static func token(of url: URL) -> String? {
        let token = url.lastPathComponent
        guard !token.isEmpty, token != "/", token.utf8.count <= 200,
            token.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") })
        else { return nil }
        return token
    }
}
