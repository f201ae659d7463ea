#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import Foundation

    /// A ``BrowserSession`` on `ASWebAuthenticationSession`: the system's authentication browser,
    /// which shares cookies with Safari (unless ephemeral) and hands the callback back to the app
    /// without the app registering a URL scheme handler.
    ///
    /// The redirect URI decides how the callback is recognised: a private-use scheme
    /// (`com.example.app:/callback`) by its scheme; an `https` redirect URI, from iOS 17.4 and
    /// macOS 14.4, by its host and path (the app's associated domain must list the host as
    /// `webcredentials`). Loopback `http` redirect URIs are for desktop apps that listen on a
    /// port, not for this session.
    ///
    /// ```swift
    /// let browser = WebAuthenticationBrowserSession { window }   // the window to present over
    /// let tokens = try await keyway.browser.signIn(using: browser, options: options)   // saved in keyway.session
    /// ```
    public struct WebAuthenticationBrowserSession: BrowserSession {
        /// Whether the session keeps no cookies and shares none with Safari (no "signed in"
        /// carried over, and no consent prompt about sharing on iOS).
        public var prefersEphemeralWebBrowserSession: Bool
        private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// A session presented over the window `presentationAnchor` returns.
        ///
        /// - Parameters:
        ///   - prefersEphemeralWebBrowserSession: Whether to use a private browsing session.
        ///   - presentationAnchor: Returns the window to present the browser over; called on the
        ///     main actor.
        public init(
            prefersEphemeralWebBrowserSession: Bool = false,
            presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            self.presentationAnchor = presentationAnchor
        }

        /// Opens `url` in an `ASWebAuthenticationSession` and waits for the callback. Cancelling
        /// the task cancels the session.
        ///
        /// - Parameters:
        ///   - url: The authorization URL.
        ///   - callbackURL: The redirect URI: a private-use scheme, or `https` (iOS 17.4, macOS
        ///     14.4 and later).
        /// - Returns: The callback URL.
        /// - Throws: ``BrowserSignInError/cancelled`` when the user closed the browser
        ///   (`ASWebAuthenticationSessionError.canceledLogin`) or the task was cancelled;
        ///   ``BrowserSignInError/browserFailed(_:)`` when the session cannot start, the redirect
        ///   URI cannot be caught, or the session fails otherwise.
        public func authorize(url: URL, callbackURL: URL) async throws -> URL {
            let run = await WebAuthenticationRun(
                ephemeral: prefersEphemeralWebBrowserSession, presentationAnchor: presentationAnchor)
            return try await withTaskCancellationHandler {
                try await run.start(url: url, callbackURL: callbackURL)
            } onCancel: {
                Task { @MainActor in run.cancel() }
            }
        }
    }

    /// One run of an `ASWebAuthenticationSession`, kept alive (with its presentation context,
    /// which the session holds weakly) until the session calls back or the run is cancelled.
    @MainActor
    private final class WebAuthenticationRun {
        private let ephemeral: Bool
        private let context: PresentationContext
        private var session: ASWebAuthenticationSession?
        private var cancelled = false
        /// Resumes the waiting task once: the session's completion, a start that fails and a
        /// cancellation may each come first, and a continuation resumed twice traps.
        private var waiting: ContinuationOnce<URL>?

        init(ephemeral: Bool, presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.ephemeral = ephemeral
            self.context = PresentationContext(anchor: presentationAnchor)
        }

        func start(url: URL, callbackURL: URL) async throws -> URL {
            guard !cancelled else { throw BrowserSignInError.cancelled }
            return try await withCheckedThrowingContinuation { continuation in
                let once = ContinuationOnce(continuation)
                waiting = once
                // Called at most once, on whichever queue the system picks: nonisolated and Sendable.
                let completion: @Sendable (URL?, (any Error)?) -> Void = { callback, error in
                    if let callback {
                        once.resume(with: .success(callback))
                    } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                        once.resume(with: .failure(BrowserSignInError.cancelled))
                    } else {
                        let reason = error.map { String(describing: $0) } ?? "no callback URL"
                        once.resume(with: .failure(BrowserSignInError.browserFailed(reason)))
                    }
                }
                let session: ASWebAuthenticationSession
                do {
                    session = try Self.makeSession(url: url, callbackURL: callbackURL, completion: completion)
                } catch {
                    once.resume(with: .failure(error))
                    return
                }
                session.presentationContextProvider = context
                session.prefersEphemeralWebBrowserSession = ephemeral
                self.session = session
                if !session.start() {
                    self.session = nil
                    once.resume(with: .failure(BrowserSignInError.browserFailed("The authentication session could not start.")))
                }
            }
        }

        /// Cancels the session and resumes the waiting task with ``BrowserSignInError/cancelled``
        /// here: Apple does not promise that the completion handler runs after `cancel()`.
        func cancel() {
            cancelled = true
            session?.cancel()
            session = nil
            waiting?.resume(with: .failure(BrowserSignInError.cancelled))
        }

        /// A session that recognises the callback by the redirect URI's scheme, or by its host
        /// and path for `https` (iOS 17.4, macOS 14.4).
        private static func makeSession(
            url: URL, callbackURL: URL, completion: @escaping @Sendable (URL?, (any Error)?) -> Void
        ) throws -> ASWebAuthenticationSession {
            guard let scheme = callbackURL.scheme?.lowercased() else {
                throw BrowserSignInError.browserFailed("The redirect URI has no scheme.")
            }
            if scheme == "http" {
                throw BrowserSignInError.browserFailed("An http (loopback) redirect URI is for an app that listens on a port.")
            }
            if #available(iOS 17.4, macOS 14.4, *) {
                let callback: ASWebAuthenticationSession.Callback
                if scheme == "https" {
                    guard let host = callbackURL.host else {
                        throw BrowserSignInError.browserFailed("The https redirect URI has no host.")
                    }
                    callback = .https(host: host, path: callbackURL.path.isEmpty ? "/" : callbackURL.path)
                } else {
                    callback = .customScheme(scheme)
                }
                return ASWebAuthenticationSession(url: url, callback: callback, completionHandler: completion)
            }
            guard scheme != "https" else {
                throw BrowserSignInError.browserFailed("An https redirect URI needs iOS 17.4 or macOS 14.4.")
            }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completion)
        }
    }

    /// Hands `ASWebAuthenticationSession` the app's window.
    private final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            // The system asks on the main thread. The closure is copied out first: a main-actor
            // closure that captured `self` (not Sendable) would not compile under Swift 6 where
            // the protocol is not main-actor isolated.
            let anchor = self.anchor
            return MainActor.assumeIsolated { anchor() }
        }
    }
#endif
