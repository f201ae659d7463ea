/// Everything one hosted page shows, independent of HTML: the controller builds it from a flow
/// step (or an error, a consent request, a sign-out), ``HostedPageRenderer`` draws it.
struct HostedPage: Sendable, Equatable {
    /// The page's heading and `<title>`.
    var title: String
    /// A line under the heading ("to continue to Acme Notes").
    var subtitle: String?
    /// The project's look.
    var theme: HostedTheme
    /// Messages above the forms: a notice, an error of the whole page.
    var messages: [HostedMessage] = []
    /// What the page shows besides its forms (a QR code, a key to type, a list).
    var displays: [HostedDisplay] = []
    /// The forms, in order; each posts on its own.
    var forms: [HostedForm] = []
    /// Links under the forms ("Start again", "Create an account", the terms).
    var links: [HostedLink] = []
    /// Reload the page after this many seconds (waiting for an approval), without JavaScript.
    var refreshAfter: Int? = nil
    /// Send the browser on to this `https` (or loopback `http`) URL at once, without JavaScript
    /// (an upstream provider's sign-in page); the page links to it too.
    var redirectTo: String? = nil
    /// Whether the page runs passkey ceremonies (it then loads `/login/assets/passkey.js`).
    var runsPasskeys: Bool { forms.contains { $0.passkey != nil } }
    /// The page's language (`lang`).
    var locale = "en"
    /// The HTTP status the page is served with.
    var status = 200
}

/// A project's look on the hosted pages.
struct HostedTheme: Sendable, Equatable, Codable {
    /// The name shown at the top of every page.
    var name: String
    /// An `https` URL of the logo.
    var logoURL: String?
    /// The primary colour, `#rrggbb`.
    var primaryColor: String?
    /// An `https` URL of a stylesheet loaded after the built-in one.
    var stylesheetURL: String?
}

/// A message on a page.
struct HostedMessage: Sendable, Equatable {
    enum Level: String, Sendable { case info, success, warning, error }
    var level: Level
    var text: String
}

/// Something a page shows.
enum HostedDisplay: Sendable, Equatable {
    /// A labelled value (`Sent to` / `a•••@example.com`).
    case value(label: String, value: String)
    /// A secret to type by hand, shown monospaced in groups of four.
    case key(label: String, value: String)
    /// A QR code of `data`, drawn as an inline SVG, with `label` as its accessible name.
    case qrCode(label: String, data: String)
    /// A list of items, each with an optional detail line and forms of its own, then `actions`:
    /// forms of the whole list (*Add a passkey*).
    case list(label: String, items: [HostedListItem], actions: [HostedForm] = [])
    /// A paragraph of text.
    case text(String)
    /// An `https` image with its text alternative (a client's logo on the consent page); left
    /// out of the page when `url` is not `https`.
    case image(url: String, alt: String)
}

/// One item of a ``HostedDisplay/list(label:items:actions:)``; it may carry forms of its own
/// (revoke; rename and remove).
struct HostedListItem: Sendable, Equatable {
    var title: String
    var detail: String?
    /// Its forms, in order.
    var forms: [HostedForm]

    init(title: String, detail: String?, forms: [HostedForm]) {
        self.title = title
        self.detail = detail
        self.forms = forms
    }

    /// An item with one form, or none.
    init(title: String, detail: String? = nil, form: HostedForm? = nil) {
        self.init(title: title, detail: detail, forms: form.map { [$0] } ?? [])
    }
}

/// A form posting to the hosted pages.
struct HostedForm: Sendable, Equatable {
    enum Style: String, Sendable {
        /// The page's main button.
        case primary
        /// A secondary button.
        case secondary
        /// Drawn as a link-like button (resend, cancel).
        case link
    }

    /// The path the form posts to (`/login/action`).
    var action: String
    /// The synchronizer token, sent as the `csrf_token` field.
    var csrfToken: String
    /// Hidden values (the action's name).
    var hidden: [HostedHiddenValue] = []
    var fields: [HostedField] = []
    var submitLabel: String
    var style: Style = .primary
    /// A sentence under the button (a cooldown: "You can ask for a new code in 30 seconds.").
    var note: String? = nil
    /// Whether the button is disabled (a resend still cooling down).
    var disabled = false
    /// An `https` icon drawn in the button (an upstream provider's logo).
    var iconURL: String? = nil
    /// A passkey ceremony the page's script runs before the form is sent: it puts the
    /// authenticator's answer into the form's `credential` value.
    var passkey: HostedPasskeyCeremony? = nil
}

/// A hidden form value.
struct HostedHiddenValue: Sendable, Equatable {
    var name: String
    var value: String
}

/// One input of a form.
struct HostedField: Sendable, Equatable {
    enum Kind: String, Sendable {
        case text, email, tel, password, code, checkbox, select
    }

    var name: String
    var label: String
    var kind: Kind
    var required = true
    var value: String? = nil
    /// The `autocomplete` token (`one-time-code`, `email`, `tel`, `current-password`, `new-password`).
    var autocomplete: String? = nil
    var minLength: Int? = nil
    var maxLength: Int? = nil
    /// A regular expression the browser checks (`pattern`).
    var pattern: String? = nil
    /// A hint under the input, tied with `aria-describedby`.
    var hint: String? = nil
    /// The error of this input, tied with `aria-describedby` and `aria-invalid`.
    var error: String? = nil
    /// For `select`.
    var options: [HostedOption] = []
    /// For a checkbox: a link in its label (the terms).
    var link: HostedLink? = nil
}

/// An option of a select input.
struct HostedOption: Sendable, Equatable {
    var value: String
    var label: String
}

/// A link on a page.
struct HostedLink: Sendable, Equatable {
    var text: String
    var href: String
}

/// A WebAuthn ceremony a form runs in the browser (`/login/assets/passkey.js`).
struct HostedPasskeyCeremony: Sendable, Equatable {
    enum Mode: String, Sendable {
        /// `navigator.credentials.create`.
        case create
        /// `navigator.credentials.get`.
        case get
    }
    var mode: Mode
    /// The standard options as JSON (WebAuthn Level 3).
    var optionsJSON: String
    /// What the page says when the browser has no passkeys.
    var unsupportedText: String
    /// What the page says when the ceremony fails or is cancelled.
    var failedText: String
    /// Whether the script also offers the passkeys among the page's autofill suggestions
    /// (conditional mediation), where the browser can.
    var conditional = false
}
