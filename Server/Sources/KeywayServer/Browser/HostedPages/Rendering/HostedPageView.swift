/// What the mustache templates read: a ``HostedPage`` flattened into plain strings, booleans and
/// arrays, built by ``HostedPageView/init(page:strings:themeStylesheetPath:)``.
///
/// Mustache looks a missing name up in the enclosing contexts, and a nil optional counts as
/// missing: so no value here is optional. Each view has every name its part of the templates
/// reads (an absent value is an empty string with a `has…` flag, an absent object an empty array),
/// and every string goes through `{{…}}`, which escapes it.
struct HostedPageView: Sendable {
    /// `<html lang>`: the page's locale when it is a plain language tag, otherwise `en`.
    let lang: String
    /// The heading and the first part of `<title>`.
    let title: String
    /// Whether there is a subtitle.
    let hasSubtitle: Bool
    /// The line under the heading.
    let subtitle: String
    /// The project's name and logo.
    let brand: HostedBrandView
    /// The stylesheets, in order: the built-in one, the theme's colour, the project's own.
    let stylesheets: [HostedLinkView]
    /// The scripts (`/login/assets/passkey.js` on a page with a passkey ceremony).
    let scripts: [HostedLinkView]
    /// Whether the page reloads itself.
    let hasRefresh: Bool
    /// The seconds of `<meta http-equiv="refresh">`.
    let refreshSeconds: String
    /// Whether the page sends the browser on at once.
    let hasRedirect: Bool
    /// Where it sends it (`<meta http-equiv="refresh" content="0; url=…">`).
    let redirectURL: String
    /// Whether any field has an error (the error summary and the title's prefix).
    let hasErrors: Bool
    /// The field errors, each linking to its input.
    let errorSummary: [HostedLinkView]
    /// The page's messages.
    let messages: [HostedMessageView]
    /// The displays; consecutive labelled values are grouped into one list.
    let displays: [HostedDisplayView]
    /// The forms.
    let forms: [HostedFormView]
    /// Whether there are links.
    let hasLinks: Bool
    /// The links under the forms.
    let links: [HostedLinkView]
    /// The frame's strings: `chrome.<name>` of the catalog as `chrome.<name>` in the templates.
    let chrome: [String: String]
}

/// The project's name and logo at the top of a page.
struct HostedBrandView: Sendable {
    /// The project's name (the logo's `alt`).
    let name: String
    /// Whether a logo is shown (an `https` URL was set).
    let hasLogo: Bool
    /// The logo's URL.
    let logoURL: String
    /// Without a logo, the name's first letter or digit, drawn as a mark in the primary colour
    /// (empty when the name has none).
    let initial: String
    /// Whether the mark is drawn: no logo, and a name with a letter or digit. (Stored: the
    /// templates read stored properties only.)
    let hasInitial: Bool
}

/// A link: a page link, a stylesheet or an error summary entry.
struct HostedLinkView: Sendable {
    /// The link's text.
    let text: String
    /// Where it points.
    let href: String
}

/// A labelled value.
struct HostedValueView: Sendable {
    /// The label (`Sent to`).
    let label: String
    /// The value.
    let value: String
}

/// A message with its level.
struct HostedMessageView: Sendable {
    /// The message.
    let text: String
    /// The level's name, for the class (`kw-message-error`).
    let level: String
    /// `alert` for an error, `status` otherwise.
    let role: String
    /// Whether the level is info.
    let isInfo: Bool
    /// Whether the level is success.
    let isSuccess: Bool
    /// Whether the level is warning.
    let isWarning: Bool
    /// Whether the level is error.
    let isError: Bool
}

/// One display, with a flag for its kind and every kind's values (empty for the other kinds).
struct HostedDisplayView: Sendable {
    /// Whether it is a group of labelled values.
    let isValues: Bool
    /// Whether it is a key to type.
    let isKey: Bool
    /// Whether it is a QR code.
    let isQRCode: Bool
    /// Whether it is a list.
    let isList: Bool
    /// Whether it is a paragraph.
    let isText: Bool
    /// Whether it is an image.
    let isImage: Bool
    /// The key's, the QR code's or the list's label; the paragraph's text; the image's text
    /// alternative.
    let label: String
    /// The element id of the label (a key's, a list's).
    let labelId: String
    /// The labelled values.
    let values: [HostedValueView]
    /// The key in groups of four characters.
    let keyGroups: [String]
    /// The QR code's `viewBox` extent (empty when not a QR code).
    let qrExtent: String
    /// The QR code's path (empty when not a QR code).
    let qrPath: String
    /// Whether the list has items.
    let hasItems: Bool
    /// The list's items.
    let items: [HostedListItemView]
    /// Whether the list has forms of its own, under its items.
    let hasActions: Bool
    /// The list's own forms (*Add a passkey*).
    let actions: [HostedFormView]
    /// The image's `https` URL (empty when not an image).
    let imageURL: String
}

/// An item of a list display.
struct HostedListItemView: Sendable {
    /// The item's title.
    let title: String
    /// The element id of the title (the item's button is described by it).
    let titleId: String
    /// Whether there is a detail line.
    let hasDetail: Bool
    /// The detail line.
    let detail: String
    /// Whether the item has forms.
    let hasForms: Bool
    /// The item's forms, in order.
    let form: [HostedFormView]
}

/// A form.
struct HostedFormView: Sendable {
    /// Where it posts.
    let action: String
    /// The synchronizer token (`csrf_token`).
    let csrfToken: String
    /// The hidden values.
    let hidden: [HostedHiddenView]
    /// The inputs.
    let fields: [HostedFieldView]
    /// The button's text.
    let submitLabel: String
    /// `primary`, `secondary` or `link`, for the classes.
    let style: String
    /// Whether the button is disabled.
    let disabled: Bool
    /// Whether the button has an icon.
    let hasIcon: Bool
    /// The icon's `https` URL.
    let iconURL: String
    /// Whether there is a note.
    let hasNote: Bool
    /// The note under the button.
    let note: String
    /// The note's element id.
    let noteId: String
    /// Whether the button has a description.
    let hasButtonDescribedBy: Bool
    /// The ids describing the button (an item's title, the note).
    let buttonDescribedBy: String
    /// Whether the form runs a passkey ceremony before it is sent.
    let hasPasskey: Bool
    /// `create` or `get`.
    let passkeyMode: String
    /// The ceremony's options (JSON, escaped as an attribute value).
    let passkeyOptions: String
    /// What the script says when the browser has no passkeys.
    let passkeyUnsupported: String
    /// What the script says when the ceremony fails or is cancelled.
    let passkeyFailed: String
    /// Whether the script also offers passkeys among autofill suggestions.
    let passkeyConditional: Bool
}

/// A hidden value of a form.
struct HostedHiddenView: Sendable {
    /// The name.
    let name: String
    /// The value.
    let value: String
}

/// One input of a form.
struct HostedFieldView: Sendable {
    /// The element id (the label's `for`).
    let id: String
    /// The name it posts.
    let name: String
    /// The label.
    let label: String
    /// Whether it is an `<input>` of text (text, email, tel, password, code).
    let isInput: Bool
    /// Whether it is a checkbox.
    let isCheckbox: Bool
    /// Whether it is a select.
    let isSelect: Bool
    /// Whether it is a one-time code (`inputmode="numeric"`).
    let isCode: Bool
    /// Whether spelling checks and capitalization are off (email, code).
    let isVerbatim: Bool
    /// The input's `type`.
    let inputType: String
    /// Whether it is required.
    let required: Bool
    /// Whether the label says "optional".
    let optional: Bool
    /// Whether there is a value to show.
    let hasValue: Bool
    /// The value shown.
    let value: String
    /// Whether a checkbox is ticked.
    let checked: Bool
    /// Whether there is an `autocomplete` token.
    let hasAutocomplete: Bool
    /// The `autocomplete` token.
    let autocomplete: String
    /// Whether there is a `minlength`.
    let hasMinLength: Bool
    /// The `minlength`.
    let minLength: String
    /// Whether there is a `maxlength`.
    let hasMaxLength: Bool
    /// The `maxlength`.
    let maxLength: String
    /// Whether there is a `pattern`.
    let hasPattern: Bool
    /// The `pattern`.
    let pattern: String
    /// Whether there is a hint.
    let hasHint: Bool
    /// The hint.
    let hint: String
    /// The hint's element id.
    let hintId: String
    /// Whether there is an error.
    let hasError: Bool
    /// The error.
    let error: String
    /// The error's element id.
    let errorId: String
    /// Whether the input has a description.
    let hasDescribedBy: Bool
    /// The ids of the hint and the error (`aria-describedby`).
    let describedBy: String
    /// A select's options.
    let options: [HostedOptionView]
    /// A checkbox's link: none or one.
    let link: [HostedLinkView]
}

/// An option of a select.
struct HostedOptionView: Sendable {
    /// The value it posts.
    let value: String
    /// The text shown.
    let label: String
    /// Whether it is selected.
    let selected: Bool
}
