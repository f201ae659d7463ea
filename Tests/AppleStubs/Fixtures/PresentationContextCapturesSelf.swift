// expect (iOS): sending 'self' risks causing data races
// The presentation context of WebAuthenticationBrowserSession before the fix: the main-actor
// closure reads the stored `anchor`, so it captures `self`, which is not Sendable, while the
// protocol's requirement is not main-actor isolated.
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import Foundation

    final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }
    }
#endif
