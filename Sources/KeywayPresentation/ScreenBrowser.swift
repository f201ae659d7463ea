import Foundation
import KeywayProtocol

/// A page a screen opens in a browser: an upstream provider's sign-in page (a `redirect` step).
/// Open ``url`` (on Apple platforms `ASWebAuthenticationSession` with ``returnScheme`` as its
/// callback scheme; elsewhere the system browser and a listener for the return), then hand the
/// URL the browser came back with to `KeywayScreenModel.oauthCallback(url:)`.
public struct ScreenBrowser: Sendable, Equatable {
    /// The page to open.
    public var url: URL
    /// The scheme the browser comes back to (the app's scheme, `https`, or `http` on loopback).
    public var returnScheme: String
    /// The provider the user signs in with.
    public var provider: FederationProvider

    /// A page to open in a browser.
    ///
    /// - Parameters:
    ///   - url: The page to open.
    ///   - returnScheme: The scheme the browser comes back to.
    ///   - provider: The provider the user signs in with.
    public init(url: URL, returnScheme: String, provider: FederationProvider) {
        self.url = url
        self.returnScheme = returnScheme
        self.provider = provider
    }
}
