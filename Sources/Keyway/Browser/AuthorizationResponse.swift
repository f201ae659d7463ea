import Foundation
import KeywayJOSE
import KeywayProtocol

/// The successful answer to an ``AuthorizationRequest``, read from its callback.
struct AuthorizationResponse: Sendable, Equatable {
    /// The authorization code, to redeem once with the request's verifier.
    let code: Sensitive<String>
    /// The `state`, equal to the request's.
    let state: String
    /// The `iss`, when the server sent it (then equal to the request's issuer).
    let issuer: String?
}

extension AuthorizationRequest {
    /// Reads the callback of this request (RFC 6749 §4.1.2, RFC 9207), in this order: the
    /// callback must be at the redirect URI, with no parameter twice; `iss`, when present, must be
    /// the issuer, and must be present when ``requiresIssuer``; `state` must be this request's
    /// (compared in constant time); an `error` is the server's refusal; and then a `code` must be
    /// there. Nothing of a callback that fails a check is used.
    ///
    /// - Parameter callbackURL: The URL the browser came back to.
    /// - Returns: The code, the state and the issuer.
    /// - Throws: ``BrowserSignInError``: `malformedCallback`, `issuerMismatch`, `issuerMissing`,
    ///   `stateMismatch`, `authorizationFailed` (the server's error code and description), or
    ///   `missingCode`.
    func response(from callbackURL: URL) throws(BrowserSignInError) -> AuthorizationResponse {
        guard Self.isAt(callbackURL, redirectURI) else {
            throw .malformedCallback("it is not at the redirect URI \(redirectURI.absoluteString).")
        }
        let parameters = try Self.queryParameters(of: callbackURL)
        if let iss = parameters["iss"] {
            guard iss == issuer else { throw .issuerMismatch(expected: issuer, received: iss) }
        } else if requiresIssuer {
            throw .issuerMissing
        }
        guard let returnedState = parameters["state"], ConstantTime.equals(returnedState, state) else {
            throw .stateMismatch
        }
        if let error = parameters["error"] {
            throw .authorizationFailed(
                error: error, description: parameters["error_description"], uri: parameters["error_uri"])
        }
        guard let code = parameters["code"], !code.isEmpty else { throw .missingCode }
        return AuthorizationResponse(code: Sensitive(code), state: returnedState, issuer: parameters["iss"])
    }

    /// Whether `callback` is at `redirect`: the same scheme, host, port and path (a loopback
    /// redirect's port included: the app listens on it).
    static func isAt(_ callback: URL, _ redirect: URL) -> Bool {
        guard let got = URLComponents(url: callback, resolvingAgainstBaseURL: false),
            let want = URLComponents(url: redirect, resolvingAgainstBaseURL: false)
        else { return false }
        func path(_ components: URLComponents) -> String { components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath }
        return got.scheme?.lowercased() == want.scheme?.lowercased() && got.host?.lowercased() == want.host?.lowercased()
            && got.port == want.port && path(got) == path(want)
    }

    /// The callback's query parameters, decoded (`+` as a space, as HTML forms send it); a
    /// parameter given twice is refused (RFC 6749 §3.1).
    static func queryParameters(of url: URL) throws(BrowserSignInError) -> [String: String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .malformedCallback("it is not a URL.")
        }
        var parameters: [String: String] = [:]
        for item in components.percentEncodedQueryItems ?? [] {
            let name = item.name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? item.name
            let value = (item.value ?? "").replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            guard let value else { throw .malformedCallback("\(name) is not percent-encoded UTF-8.") }
            guard parameters[name] == nil else { throw .malformedCallback("\(name) is given twice.") }
            parameters[name] = value
        }
        return parameters
    }
}
