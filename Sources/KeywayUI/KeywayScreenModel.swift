#if canImport(Observation)
    import Foundation
    import Keyway
    import Observation

    /// Runs a whole flow as screens: start it, render ``screen``, keep the user's input in
    /// ``values``, and hand each button of the screen to ``perform(_:)``. When the flow completes,
    /// the user is signed in to the client's ``KeywayClient/session`` (the SDK saved the sign-in,
    /// or, where ``KeywayOptions/completedSignIns`` hands completions over, the model redeems the
    /// code and saves it); ``tokens`` then holds the tokens.
    ///
    /// The model is platform-neutral: SwiftUI observes it, and a terminal or a test drives it the
    /// same way.
    @MainActor
    @Observable
    public final class KeywayScreenModel {
        /// The screen to render now (set directly only by previews and tests of a renderer).
        public internal(set) var screen = Screen(kind: .idle, title: "", language: .english)
        /// The input values by input name, as the user types them.
        public var values: [String: String] = [:]
        /// The tokens of the completed flow, once saved in the session.
        public internal(set) var tokens: TokenSet?
        /// The language of the words the screens write themselves (``Screen/language``).
        public let language: ScreenLanguage
        /// How the step kinds KeywayPresentation has no layout for are drawn.
        public let screens: StepScreens

        @ObservationIgnored let keyway: KeywayClient
        /// What runs the passkey screens' buttons.
        @ObservationIgnored let passkeyAuthenticator: (any PasskeyAuthenticator)?
        @ObservationIgnored private var started: Start?
        /// The step whose inputs ``values`` holds.
        @ObservationIgnored var shownStep: String?
        /// The flow's update ``screen`` was made from.
        @ObservationIgnored var shownUpdate = FlowUpdate.idle

        /// What was started, to start it again.
        private enum Start {
            case flow(identifier: String, flowType: FlowType, inviteCode: String?, options: FlowStartOptions)
            case accountManagement(account: String?)
            case guestUpgrade(identifier: String, inviteCode: String?, account: String?)
            case passkeySignIn(options: FlowStartOptions)
        }

        /// A model of `keyway`'s flow, idle until a flow starts.
        ///
        /// - Parameters:
        ///   - keyway: The SDK whose ``KeywayClient/flow`` the model runs.
        ///   - passkeyAuthenticator: What the passkey screens' buttons ("Create a passkey", "Use a
        ///     passkey") run: ``PlatformPasskeyAuthenticator`` in an app, a
        ///     `SoftwarePasskeyAuthenticator` in tests; `nil` where passkeys cannot be used (those
        ///     buttons then say so, and send nothing).
        ///   - language: The language of the words the screens write themselves (default: the
        ///     app's, ``ScreenLanguage/current``).
        ///   - screens: How step kinds without a layout of their own are drawn (default: from
        ///     their actions); the same mappings the app's other renderers use.
        public init(
            keyway: KeywayClient,
            passkeyAuthenticator: (any PasskeyAuthenticator)? = nil,
            language: ScreenLanguage = .current,
            screens: StepScreens = .standard
        ) {
            self.language = language
            self.screens = screens
            self.screen = Screen(kind: .idle, title: "", language: language)
            self.keyway = keyway
            self.passkeyAuthenticator = passkeyAuthenticator
        }

        /// Whether the model has a ``PasskeyAuthenticator``: a renderer offers
        /// ``startPasskeySignIn(options:)`` only then.
        public var canUsePasskeys: Bool { passkeyAuthenticator != nil }

        /// Starts a sign-in with a discoverable passkey, without an identifier
        /// (``KeywayFlow/startPasskeySignIn(codeChallenge:options:)``), and shows its first step:
        /// the `passkeyAuthenticate` screen, whose "Use a passkey" button runs the model's
        /// authenticator; the passkey the user picks names the account.
        ///
        /// - Parameter options: The OpenID Connect parameters; the code is redeemed with them.
        public func startPasskeySignIn(options: FlowStartOptions = FlowStartOptions()) async {
            started = .passkeySignIn(options: options)
            showLoading()
            await keyway.flow.startPasskeySignIn(options: options)
            await refresh()
        }

        /// Starts a flow for `identifier` and shows its first step.
        ///
        /// - Parameters:
        ///   - identifier: The user's email address or phone number.
        ///   - flowType: `signin` (the default) or `signup`.
        ///   - inviteCode: An invitation code, where sign-up needs one.
        ///   - options: The OpenID Connect parameters (scope, nonce, redirect URI, state); the
        ///     code is redeemed with them when the flow completes.
        public func start(
            identifier: String, flowType: FlowType = .signin, inviteCode: String? = nil,
            options: FlowStartOptions = FlowStartOptions()
        ) async {
            started = .flow(identifier: identifier, flowType: flowType, inviteCode: inviteCode, options: options)
            showLoading()
            await keyway.flow.start(
                flowType: flowType, identifier: identifier, inviteCode: inviteCode, options: options)
            await refresh()
        }

        /// Starts an account-management flow for a signed-in account of the client's session (see
        /// ``KeywaySession/manageAccount(account:codeChallenge:)``) and shows its first step.
        /// When it completes with a new sign-in, the new tokens replace the session's.
        ///
        /// - Parameter account: The account of the session to manage (default: the current one).
        /// - Throws: The ``SessionError`` of reading the session's access token
        ///   (`noAccessTokenPresent` when nobody is signed in); the
        ///   screen is then back to idle. Every later failure is shown on ``screen``.
        public func startAccountManagement(account: String? = nil) async throws(SessionError) {
            started = .accountManagement(account: account)
            showLoading()
            do throws(SessionError) {
                try await keyway.session.manageAccount(account: account)
            } catch {
                screen = Screen(kind: .idle, title: "", language: language)
                throw error
            }
            await refresh()
        }

        /// Starts the sign-up that upgrades a guest of the client's session (see
        /// ``KeywaySession/upgradeGuest(identifier:inviteCode:options:account:)``) and shows its
        /// first step. The flow runs as any sign-up; when it completes, the account keeps the
        /// guest's user ID and its tokens replace the guest's in the session. When the identifier
        /// belongs to an existing account, the screen is the `accountExists` step: its primary
        /// action signs in to that account instead (its tokens are then saved as another account
        /// of the session, and ``KeywayEvent/Name/guestMerged`` is emitted), its `stayGuest`
        /// action ends the flow and leaves a ``Screen/Kind/finished`` screen with the message
        /// `stayedGuest`, the guest's session unchanged.
        ///
        /// - Parameters:
        ///   - identifier: The email address or phone number of the new account.
        ///   - inviteCode: An invitation code, where sign-up needs one.
        ///   - account: The guest's account in the session (default: the current one).
        /// - Throws: The ``SessionError`` of reading the session's access token
        ///   (`noAccessTokenPresent` when nobody is signed in); the
        ///   screen is then back to idle. Every later failure (`not_a_guest` for an account that
        ///   signed up already) is shown on ``screen``.
        public func startGuestUpgrade(identifier: String, inviteCode: String? = nil, account: String? = nil)
            async throws(SessionError)
        {
            started = .guestUpgrade(identifier: identifier, inviteCode: inviteCode, account: account)
            showLoading()
            do throws(SessionError) {
                try await keyway.session.upgradeGuest(
                    identifier: identifier, inviteCode: inviteCode, account: account)
            } catch {
                screen = Screen(kind: .idle, title: "", language: language)
                throw error
            }
            await refresh()
        }

        /// Performs a button of the current screen. The inputs the action sends are checked
        /// first; refused ones get their ``ScreenInput/error`` and nothing is sent. After `resend`
        /// the screen carries a message saying whether a new code is on its way (`codeResent`) or
        /// it was too early (`resendCooldown`, with the `resendAvailable` countdown).
        ///
        /// The passkey buttons (`registerPasskey`, `authenticatePasskey`) run the model's
        /// ``PasskeyAuthenticator`` with the step's options and send its answer; an authenticator
        /// that fails (the user closed the sheet) or a refused passkey leaves the same screen with
        /// the error's banner, and the next attempt uses the step's new options. Without an
        /// authenticator the screen gets the message `passkeyUnavailable` and nothing is sent.
        ///
        /// - Parameter action: One of ``screen``'s actions.
        public func perform(_ action: ScreenAction) async {
            if action.role == .restart { return await restart() }
            // The renderer opens the browser, then calls oauthCallback(url:) with its return.
            if action.role == .openBrowser { return }
            switch action.actionName {
            case "cancel":
                await cancel()
            case "stayGuest":
                screen.isLoading = true
                await keyway.flow.stayGuest()
                guard keyway.flow.currentUpdate == .idle else { return await refresh() }
                shownUpdate = .idle
                screen = Screen(
                    kind: .finished, title: language("Still a guest"),
                    messages: [
                        ScreenMessage(
                            level: .info, code: "stayedGuest",
                            text: language("You go on as a guest. Sign up whenever you like to keep what you have."))
                    ], language: language)
            case "resend":
                screen.isLoading = true
                let sent = await keyway.flow.resend()
                await refresh()
                guard case .step = screen.kind, screen.banner == nil else { return }
                screen.messages.append(
                    sent
                        ? ScreenMessage(level: .info, code: "codeResent", text: language("A new code is on its way."))
                        : ScreenMessage(
                            level: .warning, code: "resendCooldown",
                            text: language("It is too early for a new code: wait a little.")))
            case "registerPasskey", "authenticatePasskey":
                guard let authenticator = passkeyAuthenticator else { return showPasskeysUnavailable() }
                guard let parameters = checkedParameters(for: action) else { return }
                screen.isLoading = true
                if action.actionName == "registerPasskey" {
                    let name = parameters["name"].flatMap { $0.isEmpty ? nil : $0 }
                    await keyway.flow.registerPasskey(using: authenticator, name: name)
                } else {
                    await keyway.flow.authenticateWithPasskey(using: authenticator)
                }
                await refresh(endingWithoutCode: true)
            case "renamePasskey":
                // Through the flow's call, for its local checks of the name.
                guard let parameters = checkedParameters(for: action) else { return }
                screen.isLoading = true
                await keyway.flow.renamePasskey(id: parameters["passkeyId"] ?? "", name: parameters["name"] ?? "")
                await refresh(endingWithoutCode: true)
            case let name?:
                guard let parameters = checkedParameters(for: action) else { return }
                guard let step = keyway.flow.currentPrompt?.context.step, let target = step.action(named: name) else {
                    return await refresh()
                }
                screen.isLoading = true
                await keyway.flow.submit(action: target, parameters: parameters)
                await refresh(endingWithoutCode: true)
            case nil:
                return
            }
        }

        /// Hands the URL the browser came back with, after a screen with a ``Screen/browser`` page
        /// (sign in with another provider), to the flow (``KeywayFlow/oauthCallback(url:)``), and
        /// shows where the flow went. A URL that is not this flow's return (another scheme or
        /// state) is refused before any request: the screen stays, with an `invalid_callback`
        /// banner.
        ///
        /// - Parameter url: The URL the browser came back with.
        public func oauthCallback(url: URL) async {
            screen.isLoading = true
            await keyway.flow.oauthCallback(url: url)
            await refresh()
        }

        /// Hands a sign-in link the app was opened with (its universal link or custom scheme)
        /// to the flow (``KeywayFlow/openLink(_:)``), on a code screen whose message carried a
        /// link, and shows where the flow went: the next step or the completion, or the same
        /// screen with the refusal (`invalid_link`, `link_used`, `code_expired`) — the code still
        /// works.
        ///
        /// - Parameter url: The URL the app was opened with.
        public func openLink(_ url: URL) async {
            screen.isLoading = true
            await keyway.flow.openLink(url)
            await refresh()
        }

        /// Opens the current screen's ``Screen/browser`` page with `browser` (on iOS and macOS a
        /// ``WebAuthenticationBrowserSession``), waits for its return and hands it to
        /// ``oauthCallback(url:)``. When the user closes the browser, the screen stays with a
        /// `browserCancelled` message (open it again, or cancel); when the browser fails, with a
        /// `browserFailed` message. Nothing happens on a screen without a browser page.
        ///
        /// - Parameters:
        ///   - browser: The browser to open the page in.
        ///   - callbackURL: Where the browser comes back (its scheme for an app's scheme; host and
        ///     path for `https`); by default `<returnScheme>://callback`.
        public func openBrowser(using browser: any BrowserSession, callbackURL: URL? = nil) async {
            guard let page = screen.browser else { return }
            guard let callback = callbackURL ?? URL(string: "\(page.returnScheme)://callback") else { return }
            let returned: URL
            do {
                returned = try await browser.authorize(url: page.url, callbackURL: callback)
            } catch {
                guard screen.browser == page else { return }
                let cancelled = (error as? BrowserSignInError) == .cancelled || error is CancellationError
                screen.messages.removeAll { $0.code == "browserCancelled" || $0.code == "browserFailed" }
                screen.messages.append(
                    cancelled
                        ? ScreenMessage(
                            level: .warning, code: "browserCancelled",
                            text: language("The browser was closed before you signed in."))
                        : ScreenMessage(
                            level: .error, code: "browserFailed",
                            text: language("The browser could not be opened: %@", "\(error)")))
                return
            }
            await oauthCallback(url: returned)
        }

        /// Abandons the flow (telling the server), as the screen's cancel button does: for a user
        /// who leaves the screen another way (a sheet swiped away, end of input). The screen is
        /// idle after it.
        public func cancel() async {
            await keyway.flow.cancel()
            await refresh()
        }

        /// The user left the screens another way than their buttons (a sheet swiped away, the
        /// app's own navigation): a flow still running is cancelled (telling the server), and one
        /// that is over — completed, finished or ended — is forgotten, so that the screens start
        /// again from the idle screen the next time they show. ``tokens`` goes back to `nil`; the
        /// session keeps the tokens it saved. Nothing happens on the idle screen.
        public func leave() async {
            switch screen.kind {
            case .idle:
                return
            case .loading, .step:
                await keyway.flow.cancel()
            case .completed, .finished, .ended:
                await keyway.flow.reset()
            }
            started = nil
            shownStep = nil
            shownUpdate = .idle
            values = [:]
            tokens = nil
            screen = Screen(kind: .idle, title: "", language: language)
        }

        /// Waits while the flow moves on by itself from a screen that ``Screen/isWaiting`` (an
        /// approval decided on another device, which the SDK polls for), then shows where it went:
        /// the next step, the completion, or the error that ended it. Returns at once from any
        /// other screen, and when the calling task is cancelled.
        public func waitForFlow() async {
            guard screen.isWaiting else { return }
            let shown = shownUpdate
            for await update in keyway.flow.updates where update != shown && update != .loading {
                break
            }
            // Cancelled (the view's `.task(id: screen)` moved on): the screen is left as it is —
            // a refresh would wipe its local input errors and messages and enable its buttons
            // while a request is in flight.
            guard !Task.isCancelled else { return }
            await refresh()
        }

        /// The parameters `action` sends: its own, and the values of the inputs it sends as the
        /// server reads them. `nil` when an input is refused (its error is then on the screen).
        private func checkedParameters(for action: ScreenAction) -> [String: String]? {
            var parameters = action.parameters
            let names = Set(screen.inputs(of: action).map(\.name))
            var refused = false
            for index in screen.inputs.indices where names.contains(screen.inputs[index].name) {
                let input = screen.inputs[index]
                let value = values[input.name]
                screen.inputs[index].error = input.validate(value ?? input.initialValue)
                refused = refused || screen.inputs[index].error != nil
                parameters[input.name] = input.submittedValue(for: value)
            }
            return refused ? nil : parameters
        }

        /// Says, on the current screen, that this model cannot use passkeys.
        private func showPasskeysUnavailable() {
            screen.messages.removeAll { $0.code == "passkeyUnavailable" }
            screen.messages.append(
                ScreenMessage(
                    level: .error, code: "passkeyUnavailable",
                    text: language("Passkeys cannot be used here. Choose another way.")))
        }

        /// Starts again what was started last.
        private func restart() async {
            switch started {
            case .passkeySignIn(let options):
                await startPasskeySignIn(options: options)
            case .flow(let identifier, let flowType, let inviteCode, let options):
                await start(identifier: identifier, flowType: flowType, inviteCode: inviteCode, options: options)
            case .accountManagement(let account):
                do throws(SessionError) {
                    try await startAccountManagement(account: account)
                } catch {
                    showSessionFailure(error)
                }
            case .guestUpgrade(let identifier, let inviteCode, let account):
                do throws(SessionError) {
                    try await startGuestUpgrade(identifier: identifier, inviteCode: inviteCode, account: account)
                } catch {
                    showSessionFailure(error)
                }
            case nil:
                return
            }
        }

        /// The ended screen of a flow that could not start again: the session had no token.
        private func showSessionFailure(_ error: SessionError) {
            screen = Screen(
                kind: .ended, title: language("Sign-in stopped"),
                banner: Banner(
                    code: .invalidAccessToken, message: error.description, action: .abort, recovery: .notRecoverable,
                    suggestion: nil), language: language)
        }

        private func showLoading() {
            tokens = nil
            screen = Screen(kind: .loading, title: "", isLoading: true, language: language)
        }
    }
#endif
