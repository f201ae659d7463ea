#if canImport(SwiftUI)
    import Keyway
    import SwiftUI
    #if canImport(UIKit)
        import UIKit
    #endif

    /// Draws a ``KeywayScreenModel``'s current ``Screen``: the title, messages, error banner,
    /// instruction, displays, one control per input, and the buttons. Any step renders, known or
    /// not; a screen that waits for the flow (an approval) follows it. Text scales with Dynamic
    /// Type; inputs and buttons carry their labels for VoiceOver.
    ///
    /// As a native form does: the keyboard opens on the first input, Return moves to the next
    /// one and, on the last, presses the primary button; the pressed button shows the progress;
    /// the column keeps a readable width on an iPad or a Mac.
    @MainActor
    public struct KeywayScreenView: View {
        let model: KeywayScreenModel
        let theme: KeywayTheme
        let browserSession: (any BrowserSession)?
        /// The input the keyboard types into: the first one when a screen appears, the next one
        /// on Return.
        @FocusState private var focused: String?
        /// The button pressed last: it shows the progress while its request is on its way.
        @State private var pressed: String?

        /// A view of `model`'s screen.
        ///
        /// - Parameters:
        ///   - model: The model running the flow (made once, where the flow lives).
        ///   - theme: How the screen looks.
        ///   - browserSession: The browser that opens another provider's sign-in page (a
        ///     ``WebAuthenticationBrowserSession``); without one, that button does nothing.
        public init(
            model: KeywayScreenModel, theme: KeywayTheme = .standard, browserSession: (any BrowserSession)? = nil
        ) {
            self.model = model
            self.theme = theme
            self.browserSession = browserSession
            _focused = FocusState()
        }

        /// The screen: its parts from top to bottom, in a scroll view.
        public var body: some View {
            let screen = model.screen
            ScrollView {
                VStack(alignment: .leading, spacing: 16) {
                    if let logo = theme.logoImageName {
                        Image(logo).resizable().scaledToFit().frame(maxHeight: 48).accessibilityHidden(true)
                    }
                    if !screen.title.isEmpty {
                        Text(screen.title).font(theme.titleFont).accessibilityAddTraits(.isHeader)
                    }
                    if let banner = screen.banner {
                        VStack(alignment: .leading, spacing: 4) {
                            Text(banner.message).font(theme.bodyFont)
                            if let suggestion = banner.suggestion {
                                Text(suggestion).font(.footnote)
                            }
                        }
                        .padding(12)
                        .frame(maxWidth: .infinity, alignment: .leading)
                        .background(
                            theme.errorColor.opacity(0.12), in: RoundedRectangle(cornerRadius: theme.cornerRadius)
                        )
                        .accessibilityElement(children: .combine)
                    }
                    ForEach(Array(screen.messages.enumerated()), id: \.offset) { _, message in
                        Text(message.text).font(theme.bodyFont)
                            .foregroundStyle(message.level == .error ? theme.errorColor : Color.primary)
                    }
                    if let instruction = screen.instruction {
                        Text(instruction).font(theme.bodyFont).foregroundStyle(.secondary)
                    }
                    ForEach(Array(screen.displays.enumerated()), id: \.offset) { _, display in
                        DisplayView(display: display, theme: theme, language: screen.language)
                    }
                    ForEach(screen.inputs, id: \.name) { input in
                        InputView(input: input, value: binding(for: input), theme: theme, focus: $focused)
                            .submitLabel(input.name == screen.inputs.last?.name ? .go : .next)
                    }
                    if let primary = screen.primaryAction {
                        Button {
                            press(primary)
                        } label: {
                            ActionLabel(
                                action: primary, now: nil, busy: screen.isLoading && pressed == primary.id,
                                language: screen.language
                            )
                            .frame(maxWidth: .infinity)
                        }
                        .buttonStyle(.borderedProminent)
                        .buttonBorderShape(.roundedRectangle(radius: theme.cornerRadius))
                        .tint(theme.accentColor)
                        .disabled(screen.isLoading)
                    }
                    // Redrawn every second while something counts down: a button that becomes
                    // available ("Send a new code (12 s)") and the screen's countdowns.
                    TimelineView(.periodic(from: .now, by: 1)) { timeline in
                        VStack(alignment: .leading, spacing: 16) {
                            ForEach(screen.secondaryActions) { action in
                                Button(role: action.role == .cancel ? .cancel : nil) {
                                    pressed = action.id
                                    Task { await model.perform(action) }
                                } label: {
                                    ActionLabel(
                                        action: action, now: timeline.date,
                                        busy: screen.isLoading && pressed == action.id,
                                        language: screen.language
                                    )
                                    .frame(maxWidth: .infinity)
                                }
                                .buttonStyle(.bordered)
                                .buttonBorderShape(.roundedRectangle(radius: theme.cornerRadius))
                                .disabled(screen.isLoading || !action.isAvailable(at: timeline.date))
                            }
                            ForEach(Array(screen.countdowns.enumerated()), id: \.offset) { _, countdown in
                                if let sentence = countdown.sentence(at: timeline.date, language: screen.language) {
                                    Text(sentence).font(.footnote).foregroundStyle(.secondary)
                                }
                            }
                        }
                    }
                    if screen.isWaiting || (screen.isLoading && pressed == nil) {
                        ProgressView().frame(maxWidth: .infinity)
                    }
                }
                // The theme's body font for everything that does not set its own.
                .font(theme.bodyFont)
                .padding()
                // A readable column on a wide screen (an iPad, a Mac), centred.
                .frame(maxWidth: 560)
                .frame(maxWidth: .infinity)
            }
            // Return: the next input, or the primary button after the last one.
            .onSubmit { submit(from: focused) }
            .onAppear { focused = screen.inputs.first?.name }
            .onChange(of: screen.inputs.map(\.name)) { _, names in
                focused = names.first
                if !screen.isLoading { pressed = nil }
            }
            // A screen the flow leaves by itself (an approval): follow the flow while it shows.
            .task(id: screen) { await model.waitForFlow() }
        }

        /// Presses `action`: it shows the progress until the answer comes.
        private func press(_ action: ScreenAction) {
            pressed = action.id
            Task {
                if action.role == .openBrowser, let browserSession {
                    await model.openBrowser(using: browserSession)
                } else {
                    await model.perform(action)
                }
            }
        }

        /// Return in the input named `name`: the next input, or the primary button after the last.
        private func submit(from name: String?) {
            let names = model.screen.inputs.map(\.name)
            if let name, let index = names.firstIndex(of: name), index + 1 < names.count {
                focused = names[index + 1]
            } else if let primary = model.screen.primaryAction, !model.screen.isLoading {
                press(primary)
            }
        }

        private func binding(for input: ScreenInput) -> Binding<String> {
            Binding(
                get: { @MainActor in model.values[input.name] ?? input.initialValue ?? "" },
                set: { @MainActor in model.values[input.name] = $0 })
        }
    }

    /// A button's label: its text, after its icon when it has one (an upstream provider's logo),
    /// and a spinner while the button's request is on its way.
    @MainActor
    struct ActionLabel: View {
        let action: ScreenAction
        /// The moment drawn, for a label that counts down; `nil`: the plain label.
        let now: Date?
        /// Whether this button's request is on its way.
        var busy = false
        /// The language of the words the view adds.
        var language = ScreenLanguage.current

        var body: some View {
            HStack(spacing: 8) {
                if busy {
                    ProgressView().accessibilityLabel(language("Working"))
                }
                if let icon = action.iconURL {
                    AsyncImage(url: icon) { image in
                        image.resizable().scaledToFit()
                    } placeholder: {
                        Color.clear
                    }
                    .frame(width: 20, height: 20)
                    .accessibilityHidden(true)
                }
                Text(now.map { action.label(at: $0) } ?? action.label)
            }
        }
    }

    /// One input, by its kind.
    @MainActor
    struct InputView: View {
        let input: ScreenInput
        @Binding var value: String
        let theme: KeywayTheme
        /// The screen's focus: the text field itself is bound to it, under the input's name.
        let focus: FocusState<String?>.Binding

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                switch input.kind {
                case .password, .newPassword:
                    SecureField(input.label, text: $value)
                        .focused(focus, equals: input.name)
                        .textFieldStyle(.roundedBorder)
                        #if os(iOS) || os(visionOS)
                            // Password AutoFill, and the strong-password offer for a new one.
                            .textContentType(contentType)
                        #endif
                case .choice(let options):
                    Picker(input.label, selection: $value) {
                        ForEach(options, id: \.value) { option in
                            Text(option.label).tag(option.value)
                        }
                    }
                case .code(let length):
                    // A one-time code: large digits, the number pad, the code Messages or Mail
                    // just received offered above the keyboard; a pasted sentence keeps its digits.
                    TextField(input.placeholder ?? String(repeating: "0", count: length ?? 6), text: $value)
                        .focused(focus, equals: input.name)
                        .font(.title2.monospacedDigit())
                        .multilineTextAlignment(.center)
                        .textFieldStyle(.roundedBorder)
                        #if os(iOS) || os(visionOS)
                            .keyboardType(.numberPad)
                            .textContentType(contentType ?? .oneTimeCode)
                        #endif
                        .onChange(of: value) { _, typed in
                            let kept = input.typed(typed)
                            if kept != typed { value = kept }
                        }
                        .accessibilityLabel(input.label)
                case .toggle:
                    Toggle(
                        input.label,
                        isOn: Binding(
                            get: { @MainActor in value == "true" }, set: { @MainActor in value = $0 ? "true" : "false" }
                        ))
                default:
                    TextField(input.placeholder ?? input.label, text: $value)
                        .focused(focus, equals: input.name)
                        .textFieldStyle(.roundedBorder)
                        .autocorrectionDisabled()
                        #if os(iOS) || os(visionOS)
                            .keyboardType(keyboard)
                            .textInputAutocapitalization(.never)
                            // A code from Messages or Mail, a saved address, number or user name.
                            .textContentType(contentType)
                        #endif
                        .accessibilityLabel(input.label)
                }
                if let error = input.error {
                    Text(error).font(.footnote).foregroundStyle(theme.errorColor)
                }
            }
        }

        #if os(iOS) || os(visionOS)
            /// The system's autofill for the input (``ScreenInput/autofill``).
            private var contentType: UITextContentType? {
                switch input.autofill {
                case .oneTimeCode: .oneTimeCode
                case .email: .emailAddress
                case .phone: .telephoneNumber
                case .username: .username
                case .password: .password
                case .newPassword: .newPassword
                case nil: nil
                }
            }

            private var keyboard: UIKeyboardType {
                switch input.keyboard {
                case .numberPad: .numberPad
                case .email: .emailAddress
                case .phone: .phonePad
                case .standard: .default
                }
            }
        #endif
    }

    /// A display: a secret, a QR code's data, an emphasised value, a list.
    @MainActor
    struct DisplayView: View {
        let display: ScreenDisplay
        let theme: KeywayTheme
        /// The language of the words the view adds (`Copy`).
        let language: ScreenLanguage

        var body: some View {
            switch display {
            case .secret(let label, let value):
                VStack(alignment: .leading, spacing: 4) {
                    Text(label).font(.footnote)
                    HStack {
                        Text(value.revealed).font(.body.monospaced()).textSelection(.enabled)
                        Spacer()
                        Button(language("Copy")) { Pasteboard.copy(value.revealed) }
                            .buttonStyle(.bordered)
                            .accessibilityLabel(language("Copy %@", label))
                    }
                }
            case .qrCode(let label, let data):
                VStack(alignment: .leading, spacing: 4) {
                    Text(label).font(.footnote)
                    QRCodeView(text: data.revealed, label: language("QR code")).frame(width: 180, height: 180)
                    // On the phone that shows it, the QR code cannot be scanned: an
                    // authenticator app on the same device opens the link instead.
                    if let link = URL(string: data.revealed), link.scheme == "otpauth" {
                        Link(language("Open in an authenticator app"), destination: link)
                    }
                }
            case .emphasis(let label, let value):
                VStack(spacing: 4) {
                    Text(label).font(.footnote)
                    Text(value).font(.largeTitle.monospacedDigit().bold())
                }
                .frame(maxWidth: .infinity)
                .accessibilityElement(children: .combine)
            case .list(let title, let items):
                VStack(alignment: .leading, spacing: 6) {
                    Text(title).font(.headline)
                    ForEach(Array(items.enumerated()), id: \.offset) { _, item in
                        HStack {
                            Text(item.title)
                            Spacer()
                            if let detail = item.detail { Text(detail).foregroundStyle(.secondary) }
                        }
                        .font(theme.bodyFont)
                    }
                }
            }
        }
    }
#endif
