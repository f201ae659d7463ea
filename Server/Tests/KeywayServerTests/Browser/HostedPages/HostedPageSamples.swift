@testable import KeywayServer

/// Sample pages covering every field kind, display, message level and form style: the renderer's
/// tests check them, and ``HostedPageSampleWriter`` writes them out for a look in a browser.
enum HostedPageSamples {
    /// A theme with a logo and a colour.
    static let theme = HostedTheme(
        name: "Acme Notes", logoURL: "https://cdn.example.com/acme.png", primaryColor: "#0f766e", stylesheetURL: nil)

    /// A theme with nothing but a name.
    static let plainTheme = HostedTheme(name: "Acme Notes")

    /// Sign in: an email field, a primary and a link-style form, links.
    static let signIn = HostedPage(
        title: "Sign in", subtitle: "to continue to Acme Notes", theme: plainTheme,
        forms: [
            HostedForm(
                action: "/login/action", csrfToken: "csrf-1", hidden: [HostedHiddenValue(name: "action", value: "identify")],
                fields: [
                    HostedField(
                        name: "email", label: "Email address", kind: .email, autocomplete: "email",
                        maxLength: 254)
                ],
                submitLabel: "Continue"),
            HostedForm(
                action: "/login/action", csrfToken: "csrf-1", hidden: [HostedHiddenValue(name: "action", value: "passkey")],
                submitLabel: "Sign in with a passkey", style: .secondary),
        ],
        links: [
            HostedLink(text: "Create an account", href: "/login/signup"),
            HostedLink(text: "Privacy", href: "https://example.com/privacy"),
        ])

    /// A one-time code with an error, a value display, a disabled resend with its note.
    static let code = HostedPage(
        title: "Check your email", subtitle: nil, theme: theme,
        messages: [HostedMessage(level: .info, text: "We sent a code to your email address.")],
        displays: [.value(label: "Sent to", value: "a•••@example.com")],
        forms: [
            HostedForm(
                action: "/login/action", csrfToken: "csrf-2", hidden: [HostedHiddenValue(name: "action", value: "verify")],
                fields: [
                    HostedField(
                        name: "code", label: "Code", kind: .code, value: "12345", minLength: 6, maxLength: 6,
                        pattern: "[0-9]{6}", hint: "The 6-digit code from the email.",
                        error: "The code is not right. Check it and try again.")
                ],
                submitLabel: "Verify"),
            HostedForm(
                action: "/login/action", csrfToken: "csrf-2", hidden: [HostedHiddenValue(name: "action", value: "resend")],
                submitLabel: "Send a new code", style: .link,
                note: "You can ask for a new code in 30 seconds.", disabled: true),
        ])

    /// Sign up: text, tel, password, select and a checkbox with the terms.
    static let signUp = HostedPage(
        title: "Create your account", subtitle: "for Acme Notes", theme: theme,
        forms: [
            HostedForm(
                action: "/login/action", csrfToken: "csrf-3",
                fields: [
                    HostedField(name: "name", label: "Full name", kind: .text, required: false, autocomplete: "name"),
                    HostedField(
                        name: "phone", label: "Phone number", kind: .tel, autocomplete: "tel",
                        hint: "We text a code to this number."),
                    HostedField(
                        name: "password", label: "Password", kind: .password, value: "secret-value",
                        autocomplete: "new-password", minLength: 12, hint: "At least 12 characters."),
                    HostedField(
                        name: "country", label: "Country", kind: .select, value: "fr",
                        options: [
                            HostedOption(value: "de", label: "Germany"), HostedOption(value: "fr", label: "France"),
                            HostedOption(value: "us", label: "United States"),
                        ]),
                    HostedField(
                        name: "terms", label: "I accept the terms of service", kind: .checkbox,
                        error: "Accept the terms to continue.",
                        link: HostedLink(text: "Read the terms of service", href: "https://example.com/terms")),
                ],
                submitLabel: "Create account")
        ],
        links: [HostedLink(text: "I already have an account", href: "/login")])

    /// Authenticator set-up: text, a QR code, a key, a code field.
    static let totp = HostedPage(
        title: "Set up your authenticator app", subtitle: nil, theme: plainTheme,
        displays: [
            .text("Scan this QR code with your authenticator app, or type the key below."),
            .qrCode(
                label: "QR code to add Acme Notes to your authenticator app",
                data: "otpauth://totp/Acme%20Notes:ada@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme%20Notes"),
            .key(label: "Key", value: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"),
        ],
        forms: [
            HostedForm(
                action: "/login/action", csrfToken: "csrf-4",
                fields: [HostedField(name: "code", label: "Code from the app", kind: .code, minLength: 6, maxLength: 6)],
                submitLabel: "Turn on")
        ])

    /// Waiting for an approval on another device: a refresh, messages, a check-now form.
    static let waiting = HostedPage(
        title: "Approve on your phone", subtitle: "We sent a request to your iPhone.", theme: theme,
        messages: [
            HostedMessage(level: .success, text: "Request sent."),
            HostedMessage(level: .warning, text: "The request expires in 5 minutes."),
        ],
        displays: [.value(label: "Device", value: "iPhone 15"), .value(label: "Number to match", value: "42")],
        forms: [
            HostedForm(
                action: "/login/action", csrfToken: "csrf-5", hidden: [HostedHiddenValue(name: "action", value: "poll")],
                submitLabel: "Check now", style: .secondary),
            HostedForm(
                action: "/login/action", csrfToken: "csrf-5", hidden: [HostedHiddenValue(name: "action", value: "cancel")],
                submitLabel: "Use another way", style: .link),
        ],
        refreshAfter: 5)

    /// Devices: a list whose items carry their own forms, and an error message.
    static let devices = HostedPage(
        title: "Your devices", subtitle: nil, theme: theme,
        messages: [HostedMessage(level: .error, text: "That device could not be removed. Try again.")],
        displays: [
            .list(
                label: "Signed-in devices",
                items: [
                    HostedListItem(title: "MacBook Pro", detail: "This device · last used today", form: nil),
                    HostedListItem(
                        title: "iPhone 15", detail: "Last used 3 days ago",
                        form: HostedForm(
                            action: "/login/action", csrfToken: "csrf-6",
                            hidden: [HostedHiddenValue(name: "device", value: "d_2")], submitLabel: "Remove",
                            style: .secondary)),
                    HostedListItem(
                        title: "Pixel 8", detail: nil,
                        form: HostedForm(
                            action: "/login/action", csrfToken: "csrf-6",
                            hidden: [HostedHiddenValue(name: "device", value: "d_3")], submitLabel: "Remove",
                            style: .link)),
                ])
        ],
        links: [HostedLink(text: "Back to Acme Notes", href: "https://notes.example.com/")])

    /// The account portal: rows with two forms (one with an input), a row without any, and forms
    /// of a whole list.
    static let account: HostedPage = {
        func form(_ action: String, _ label: String, hidden: [HostedHiddenValue] = [], fields: [HostedField] = [])
            -> HostedForm
        {
            HostedForm(
                action: "/login/action", csrfToken: "csrf-9",
                hidden: [HostedHiddenValue(name: "action", value: action)] + hidden, fields: fields, submitLabel: label,
                style: .secondary)
        }
        return HostedPage(
            title: "Your account", subtitle: nil, theme: theme,
            displays: [
                .list(
                    label: "Sign-in methods",
                    items: [
                        HostedListItem(title: "Email codes", detail: "ada@example.com"),
                        HostedListItem(title: "Password", detail: nil, forms: [form("changePassword", "Change")]),
                        HostedListItem(
                            title: "Authenticator app", detail: nil,
                            forms: [form("setupTotp", "Replace"), form("removeTotp", "Remove")]),
                    ]),
                .list(
                    label: "Passkeys",
                    items: [
                        HostedListItem(
                            title: "MacBook", detail: "Synced passkey",
                            forms: [
                                form(
                                    "renamePasskey", "Rename", hidden: [HostedHiddenValue(name: "passkeyId", value: "pk_1")],
                                    fields: [HostedField(name: "name", label: "Name", kind: .text, value: "MacBook", maxLength: 64)]),
                                form("removePasskey", "Remove", hidden: [HostedHiddenValue(name: "passkeyId", value: "pk_1")]),
                            ])
                    ],
                    actions: [form("addPasskey", "Add a passkey")]),
                .list(label: "Devices that sign for Acme Notes", items: [], actions: [form("createActivationCode", "Activate another device")]),
            ],
            forms: [HostedForm(action: "/account/logout", csrfToken: "csrf-9", submitLabel: "Sign out", style: .link)])
    }()

    /// A method choice with upstream providers: buttons with their icons.
    static let providers: HostedPage = {
        var google = HostedForm(
            action: "/login/action", csrfToken: "csrf-7",
            hidden: [HostedHiddenValue(name: "action", value: "selectMethod"), HostedHiddenValue(name: "methodId", value: "federation:google")],
            submitLabel: "Continue with Google", style: .secondary)
        google.iconURL = "https://cdn.example.com/google.svg"
        let email = HostedForm(
            action: "/login/action", csrfToken: "csrf-7",
            hidden: [HostedHiddenValue(name: "action", value: "selectMethod"), HostedHiddenValue(name: "methodId", value: "emailOtp")],
            submitLabel: "Email me a code", style: .secondary, note: "a•••@example.com")
        return HostedPage(title: "Choose how to sign in", subtitle: "to continue to Acme Notes", theme: theme, forms: [google, email])
    }()

    /// On the way to a provider: the browser is sent on at once, a link as a fallback.
    static let redirect = HostedPage(
        title: "Continue with Google", subtitle: "to continue to Acme Notes", theme: theme,
        displays: [.text("You are sent to Google to sign in, then back here.")],
        links: [HostedLink(text: "Continue to Google", href: "https://accounts.example.com/authorize?client_id=kw&state=st_1")],
        redirectTo: "https://accounts.example.com/authorize?client_id=kw&state=st_1")

    /// Consent for a registered client: its logo, the scopes, two forms, its own pages as links.
    static let consent = HostedPage(
        title: "Allow Travel Planner to access your account?", theme: theme,
        displays: [
            .image(url: "https://planner.example.com/logo.png", alt: "Travel Planner logo"),
            .list(
                label: "Travel Planner is asking for:",
                items: [
                    HostedListItem(title: "Know who you are"), HostedListItem(title: "See your email address"),
                    HostedListItem(title: "See your name and profile details"),
                ]),
            .text("Signed in as ada@example.com"),
        ],
        forms: [
            HostedForm(
                action: "/login/consent", csrfToken: "csrf-9", hidden: [HostedHiddenValue(name: "decision", value: "allow")],
                submitLabel: "Allow"),
            HostedForm(
                action: "/login/consent", csrfToken: "csrf-9", hidden: [HostedHiddenValue(name: "decision", value: "deny")],
                submitLabel: "Don't allow", style: .secondary),
        ],
        links: [
            HostedLink(text: "Travel Planner's privacy policy", href: "https://planner.example.com/privacy"),
            HostedLink(text: "Travel Planner's terms of service", href: "https://planner.example.com/terms"),
        ])

    /// Every sample, by name.
    static let all: [(name: String, page: HostedPage)] = [
        ("sign-in", signIn), ("code", code), ("sign-up", signUp), ("totp", totp), ("waiting", waiting),
        ("devices", devices), ("providers", providers), ("redirect", redirect), ("consent", consent),
        ("account", account),
    ]
}
