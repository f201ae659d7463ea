#if canImport(SwiftUI)
    import Keyway
    import SwiftUI

    /// A whole sign-in in one view, for a sheet: the identifier (or, when the model has a
    /// ``PasskeyAuthenticator``, a passkey sign-in without one), then every screen the flow asks
    /// for, until it hands back the tokens (saved in the model's session) or the user cancels.
    ///
    /// When the view goes away (the sheet swiped down, or closed after the sign-in) it calls
    /// ``KeywayScreenModel/leave()``: a flow still running is cancelled on the server, and the
    /// next time the sheet shows, it starts from the identifier again.
    ///
    /// ```swift
    /// .sheet(isPresented: $signingIn) {
    ///     KeywaySignInView(model: signInModel, browserSession: WebAuthenticationBrowserSession { window }) { tokens in
    ///         signingIn = false
    ///     }
    /// }
    /// ```
    @MainActor
    public struct KeywaySignInView: View {
        let model: KeywayScreenModel
        let theme: KeywayTheme
        let flowType: FlowType
        let browserSession: (any BrowserSession)?
        let onSignedIn: @MainActor (TokenSet) -> Void
        @State private var identifier = ""
        @Environment(\.dismiss) private var dismiss

        /// A sign-in view running `model`.
        ///
        /// - Parameters:
        ///   - model: The model that runs the flow, made once where the sheet is presented.
        ///   - flowType: `signin` or `signup`.
        ///   - theme: How the screens look.
        ///   - browserSession: The browser that opens another provider's sign-in page ("Continue
        ///     with …"): a ``WebAuthenticationBrowserSession``; without one, that button does
        ///     nothing.
        ///   - onSignedIn: Called once with the tokens when the flow completed.
        public init(
            model: KeywayScreenModel, flowType: FlowType = .signin, theme: KeywayTheme = .standard,
            browserSession: (any BrowserSession)? = nil, onSignedIn: @escaping @MainActor (TokenSet) -> Void
        ) {
            self.model = model
            self.flowType = flowType
            self.theme = theme
            self.browserSession = browserSession
            self.onSignedIn = onSignedIn
        }

        /// The identifier form while no flow runs, then the flow's screens, under a navigation bar
        /// with Cancel.
        public var body: some View {
            NavigationStack {
                content
                    .toolbar {
                        // Leaves at any step: the flow is cancelled on the server, the sheet closes.
                        ToolbarItem(placement: .cancellationAction) {
                            Button(model.language("Cancel")) {
                                Task {
                                    await model.leave()
                                    dismiss()
                                }
                            }
                        }
                    }
            }
        }

        private var content: some View {
            Group {
                if model.screen.kind == .idle {
                    VStack(alignment: .leading, spacing: 16) {
                        Text(model.language(flowType == .signup ? "Create your account" : "Sign in")).font(
                            theme.titleFont)
                        if let banner = model.screen.banner {
                            Text(banner.message).foregroundStyle(theme.errorColor)
                        }
                        TextField(model.language("Email or phone number"), text: $identifier)
                            .textFieldStyle(.roundedBorder)
                            .autocorrectionDisabled()
                            #if os(iOS) || os(visionOS)
                                .textContentType(.username)
                                .textInputAutocapitalization(.never)
                            #endif
                        Button {
                            Task { await model.start(identifier: identifier, flowType: flowType) }
                        } label: {
                            Text(model.language("Continue")).frame(maxWidth: .infinity)
                        }
                        .buttonStyle(.borderedProminent)
                        .tint(theme.accentColor)
                        .disabled(identifier.isEmpty)
                        if flowType == .signin, model.canUsePasskeys {
                            // A discoverable passkey names the account: no identifier needed.
                            Button {
                                Task { await model.startPasskeySignIn() }
                            } label: {
                                Label(model.language("Sign in with a passkey"), systemImage: "person.badge.key")
                                    .frame(maxWidth: .infinity)
                            }
                            .buttonStyle(.bordered)
                        }
                    }
                    .padding()
                } else {
                    KeywayScreenView(model: model, theme: theme, browserSession: browserSession)
                }
            }
            .onChange(of: model.tokens?.idToken.subject) { _, subject in
                if subject != nil, let tokens = model.tokens { onSignedIn(tokens) }
            }
            .onAppear {
                // A flow that ended while the view was away (shown again after a sign-in):
                // start from the identifier, not from its last screen.
                switch model.screen.kind {
                case .completed, .finished, .ended: Task { await model.leave() }
                default: break
                }
            }
            // The sheet swiped away, or closed: a running flow is cancelled on the server.
            .onDisappear { Task { await model.leave() } }
        }
    }
#endif
