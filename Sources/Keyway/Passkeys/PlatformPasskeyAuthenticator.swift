#if canImport(AuthenticationServices) && (os(iOS) || os(macOS))
    import AuthenticationServices
    import Foundation
    import KeywayProtocol

    /// A ``PasskeyAuthenticator`` on the system's passkeys (iOS 17, macOS 14): the
    /// AuthenticationServices platform provider, whose sheet makes a passkey in iCloud Keychain
    /// (or the user's password manager) and signs with it, or with a phone's passkey nearby.
    ///
    /// The app must be associated with the relying party's domain: `webcredentials:<domain>` in
    /// its Associated Domains entitlement, and the domain's
    /// `/.well-known/apple-app-site-association` listing `TEAMID.bundle.id` under
    /// `webcredentials.apps`; the relying-party ID of the server's options is that domain.
    ///
    /// ```swift
    /// let passkeys = PlatformPasskeyAuthenticator { window }   // the window to present over
    /// await keyway.flow.authenticateWithPasskey(using: passkeys)
    /// ```
    ///
    /// Its logic that does not need the system (base64url, descriptors, the error mapping) is
    /// shared with the other authenticators and tested on every platform.
    public struct PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        /// How a request is presented.
        public enum Presentation: Sendable, Equatable {
            /// The system's sheet (`performRequests()`).
            case modal
            /// The sheet only when a passkey of this device can answer at once; otherwise
            /// ``PasskeyError/noCredential`` without showing anything
            /// (`performRequests(options: .preferImmediatelyAvailableCredentials)`).
            case preferImmediatelyAvailableCredentials
            /// A sign-in offered in the keyboard's suggestions of a text field whose content type
            /// is `.username` (`performAutoFillAssistedRequests()`, conditional mediation; iOS
            /// only), through ``PlatformPasskeyAuthenticator/autoFillAssertion(_:)``: the request
            /// waits until the user picks a passkey there. A ceremony the user starts with a button
            /// (``PlatformPasskeyAuthenticator/getAssertion(_:)``, a registration) is presented as
            /// ``modal``: the passkey screen has no user-name field to offer suggestions in, and
            /// would wait until cancelled. On macOS an AutoFill sign-in fails with
            /// ``PasskeyError/notSupported(_:)``.
            case autoFill
        }

        /// How its requests are presented.
        public var presentation: Presentation
        private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor

        /// An authenticator presenting its requests over the window `presentationAnchor` returns.
        ///
        /// - Parameters:
        ///   - presentation: How requests are presented; the system's sheet by default.
        ///   - presentationAnchor: Returns the window to present over; called on the main actor.
        public init(
            presentation: Presentation = .modal,
            presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.presentation = presentation
            self.presentationAnchor = presentationAnchor
        }

        /// Makes a passkey with `ASAuthorizationPlatformPublicKeyCredentialProvider`: a
        /// registration request for the options' user (name and handle) and challenge, their
        /// user-verification and attestation preferences, and — from iOS 17.4 and macOS 14.4 —
        /// their excluded credentials.
        ///
        /// - Parameter options: The step's creation options.
        /// - Returns: The new passkey (`rawAttestationObject`, `rawClientDataJSON`,
        ///   `credentialID`), base64url.
        /// - Throws: ``PasskeyError/cancelled`` when the user closed the sheet
        ///   (`ASAuthorizationError.canceled`) or the task was cancelled;
        ///   ``PasskeyError/alreadyRegistered`` for an excluded credential;
        ///   ``PasskeyError/invalidOptions(_:)`` for options that are not base64url;
        ///   ``PasskeyError/failed(_:)`` otherwise (an app not associated with the domain).
        public func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws
            -> PasskeyRegistrationResponse
        {
            let challenge = try PasskeyWire.challenge(options)
            let userID = try PasskeyWire.userID(options)
            let excluded = try PasskeyWire.credentialIDs(options.excludeCredentials)
            let request = PlatformPasskeyRequest.registration(
                rpId: options.rp.id, challenge: challenge, userName: options.user.name,
                displayName: options.user.displayName, userID: userID, excluded: excluded,
                userVerification: PasskeyWire.UserVerification(options.authenticatorSelection.userVerification),
                attestation: options.attestation)
            // AutoFill suggestions are for signing in: a registration shows the sheet.
            let shown: Presentation = self.presentation == .autoFill ? .modal : self.presentation
            switch try await PlatformPasskeyRun.perform(request, presentation: shown, anchor: presentationAnchor) {
            case .registration(let response): return response
            case .assertion: throw PasskeyError.failed("The system answered a registration with a signature.")
            }
        }

        /// Signs with a passkey through `ASAuthorizationPlatformPublicKeyCredentialProvider`: an
        /// assertion request for the options' challenge, their allowed credentials (any passkey of
        /// the relying party when none) and user-verification preference.
        ///
        /// - Parameter options: The step's request options.
        /// - Returns: The signature (`rawAuthenticatorData`, `signature`, `userID`,
        ///   `rawClientDataJSON`, `credentialID`), base64url.
        /// - Throws: ``PasskeyError/cancelled`` when the user closed the sheet or the task was
        ///   cancelled; ``PasskeyError/noCredential`` when no passkey could answer without asking
        ///   (``Presentation/preferImmediatelyAvailableCredentials``);
        ///   ``PasskeyError/invalidOptions(_:)``; ``PasskeyError/failed(_:)`` otherwise.
        public func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
            let challenge = try PasskeyWire.challenge(options)
            let allowed = try PasskeyWire.credentialIDs(options.allowCredentials)
            let request = PlatformPasskeyRequest.assertion(
                rpId: options.rpID, challenge: challenge, allowed: allowed,
                userVerification: PasskeyWire.UserVerification(options.userVerification))
            // Started by the user (the step's button): the sheet, never AutoFill suggestions,
            // which need a user-name field this screen does not have.
            let shown: Presentation = self.presentation == .autoFill ? .modal : self.presentation
            return try await assertion(request, presentation: shown)
        }

        /// Signs with a passkey the user picks among the keyboard's suggestions of the app's own
        /// user-name field (`.textContentType(.username)`; conditional mediation, iOS only): start
        /// it when that field appears, cancel the task when it goes away. The request waits until
        /// the user picks a passkey there.
        ///
        /// - Parameter options: The request options of a sign-in started without an identifier.
        /// - Returns: The signature, as ``getAssertion(_:)`` answers it.
        /// - Throws: As ``getAssertion(_:)``; ``PasskeyError/notSupported(_:)`` outside iOS.
        public func autoFillAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
            let request = PlatformPasskeyRequest.assertion(
                rpId: options.rpID, challenge: try PasskeyWire.challenge(options),
                allowed: try PasskeyWire.credentialIDs(options.allowCredentials),
                userVerification: PasskeyWire.UserVerification(options.userVerification))
            return try await assertion(request, presentation: .autoFill)
        }

        private func assertion(_ request: PlatformPasskeyRequest, presentation: Presentation) async throws
            -> PasskeyAssertionResponse
        {
            switch try await PlatformPasskeyRun.perform(request, presentation: presentation, anchor: presentationAnchor) {
            case .assertion(let response): return response
            case .registration: throw PasskeyError.failed("The system answered a sign-in with a registration.")
            }
        }
    }

    /// What to ask the system, in Sendable values (the AuthenticationServices objects are made
    /// on the main actor).
    private enum PlatformPasskeyRequest: Sendable {
        case registration(
            rpId: String, challenge: Data, userName: String, displayName: String, userID: Data, excluded: [Data],
            userVerification: PasskeyWire.UserVerification, attestation: String)
        case assertion(rpId: String, challenge: Data, allowed: [Data], userVerification: PasskeyWire.UserVerification)
    }

    /// What the system answered, mapped to the WebAuthn JSON.
    private enum PlatformPasskeyResult: Sendable {
        case registration(PasskeyRegistrationResponse)
        case assertion(PasskeyAssertionResponse)
    }

    /// One request to the system: its `ASAuthorizationController`, kept alive (with its delegate,
    /// which the controller holds weakly) until the delegate answers.
    @MainActor
    private final class PlatformPasskeyRun {
        private let delegate: PlatformPasskeyDelegate
        private var controller: ASAuthorizationController?
        private var cancelled = false

        private init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            delegate = PlatformPasskeyDelegate(anchor: anchor)
        }

        /// Asks the system, and waits for its answer; cancelling the task cancels the request.
        static func perform(
            _ request: PlatformPasskeyRequest, presentation: PlatformPasskeyAuthenticator.Presentation,
            anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) async throws -> PlatformPasskeyResult {
            let run = PlatformPasskeyRun(anchor: anchor)
            return try await withTaskCancellationHandler {
                try await run.start(request, presentation: presentation)
            } onCancel: {
                Task { @MainActor in run.cancel() }
            }
        }

        private func start(
            _ request: PlatformPasskeyRequest, presentation: PlatformPasskeyAuthenticator.Presentation
        ) async throws -> PlatformPasskeyResult {
            guard !cancelled else { throw PasskeyError.cancelled }
            let authorizationRequest = Self.makeRequest(request)
            return try await withCheckedThrowingContinuation { continuation in
                delegate.wait(with: continuation)
                let controller = ASAuthorizationController(authorizationRequests: [authorizationRequest])
                controller.delegate = delegate
                controller.presentationContextProvider = delegate
                self.controller = controller
                switch presentation {
                case .modal:
                    controller.performRequests()
                case .preferImmediatelyAvailableCredentials:
                    controller.performRequests(options: .preferImmediatelyAvailableCredentials)
                case .autoFill:
                    // `performAutoFillAssistedRequests()` is iOS-only: Mac Catalyst, where
                    // `os(iOS)` holds too, marks it unavailable (API_UNAVAILABLE(macCatalyst)).
                    #if os(iOS) && !targetEnvironment(macCatalyst)
                        controller.performAutoFillAssistedRequests()
                    #else
                        delegate.finish(.failure(PasskeyError.notSupported("AutoFill-assisted sign-in needs iOS.")))
                    #endif
                }
            }
        }

        /// Cancels the request; the delegate then answers (cancelled) once.
        func cancel() {
            cancelled = true
            controller?.cancel()
            delegate.finish(.failure(PasskeyError.cancelled))
        }

        /// The platform provider's request for `request`.
        private static func makeRequest(_ request: PlatformPasskeyRequest) -> ASAuthorizationRequest {
            switch request {
            case .registration(
                let rpId, let challenge, let userName, let displayName, let userID, let excluded, let userVerification,
                let attestation):
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpId)
                let registration = provider.createCredentialRegistrationRequest(
                    challenge: challenge, name: userName, userID: userID)
                registration.displayName = displayName
                registration.userVerificationPreference = preference(userVerification)
                registration.attestationPreference =
                    switch attestation {
                    case "direct": ASAuthorizationPublicKeyCredentialAttestationKind.direct
                    case "indirect": ASAuthorizationPublicKeyCredentialAttestationKind.indirect
                    case "enterprise": ASAuthorizationPublicKeyCredentialAttestationKind.enterprise
                    default: ASAuthorizationPublicKeyCredentialAttestationKind.none
                    }
                if #available(iOS 17.4, macOS 14.4, *) {
                    registration.excludedCredentials = excluded.map {
                        ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                    }
                }
                return registration
            case .assertion(let rpId, let challenge, let allowed, let userVerification):
                let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: rpId)
                let assertion = provider.createCredentialAssertionRequest(challenge: challenge)
                assertion.allowedCredentials = allowed.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
                assertion.userVerificationPreference = preference(userVerification)
                return assertion
            }
        }

        private static func preference(
            _ userVerification: PasskeyWire.UserVerification
        ) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference {
            switch userVerification {
            case .required: .required
            case .preferred: .preferred
            case .discouraged: .discouraged
            }
        }
    }

    /// The controller's delegate and presentation context: maps the system's answer to the
    /// WebAuthn JSON and resumes the waiting request exactly once.
    private final class PlatformPasskeyDelegate: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding, @unchecked Sendable
    {
        // @unchecked: `continuation` is only touched under `lock`; `anchor` is immutable.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<PlatformPasskeyResult, any Error>?
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor

        init(anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Keeps the continuation to resume.
        func wait(with continuation: CheckedContinuation<PlatformPasskeyResult, any Error>) {
            lock.withLock { self.continuation = continuation }
        }

        /// Resumes the waiting request with `result`; later calls do nothing.
        func finish(_ result: Result<PlatformPasskeyResult, any Error>) {
            let waiting: CheckedContinuation<PlatformPasskeyResult, any Error>? = lock.withLock {
                defer { self.continuation = nil }
                return self.continuation
            }
            waiting?.resume(with: result)
        }

        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            switch authorization.credential {
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                guard let attestationObject = registration.rawAttestationObject else {
                    return finish(.failure(PasskeyError.failed("The system gave no attestation object.")))
                }
                finish(
                    .success(
                        .registration(
                            PasskeyWire.registration(
                                credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                                attestationObject: attestationObject, attachment: Self.name(registration.attachment),
                                transports: ["hybrid", "internal"]))))
            case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                guard let authenticatorData = assertion.rawAuthenticatorData, let signature = assertion.signature else {
                    return finish(.failure(PasskeyError.failed("The system gave no authenticator data or signature.")))
                }
                finish(
                    .success(
                        .assertion(
                            PasskeyWire.assertion(
                                credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                                authenticatorData: authenticatorData, signature: signature, userHandle: assertion.userID,
                                attachment: Self.name(assertion.attachment)))))
            default:
                finish(.failure(PasskeyError.failed("The system answered with another kind of credential.")))
            }
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            if let authorizationError = error as? ASAuthorizationError {
                finish(
                    .failure(
                        PasskeyError(
                            authorizationErrorCode: authorizationError.code.rawValue,
                            description: authorizationError.localizedDescription)))
            } else {
                finish(.failure(PasskeyError(error)))
            }
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            // The system asks on the main thread.
            MainActor.assumeIsolated { anchor() }
        }

        /// WebAuthn's name of an attachment.
        private static func name(_ attachment: ASAuthorizationPublicKeyCredentialAttachment) -> String {
            attachment == .crossPlatform ? "cross-platform" : "platform"
        }
    }
#endif
