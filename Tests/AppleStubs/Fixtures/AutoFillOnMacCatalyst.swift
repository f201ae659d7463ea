// expect (Mac Catalyst): has no member 'performAutoFillAssistedRequests'
// AutoFill-assisted passkey requests before the fix: `os(iOS)` holds on Mac Catalyst too, where
// `performAutoFillAssistedRequests()` is unavailable.
#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices

    func present(_ controller: ASAuthorizationController) {
        #if os(iOS)
            controller.performAutoFillAssistedRequests()
        #else
            controller.performRequests()
        #endif
    }
#endif
