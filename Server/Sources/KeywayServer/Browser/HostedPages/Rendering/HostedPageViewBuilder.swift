/// Builds the forms and displays of a ``HostedPageView``, numbering them so that element ids are
/// unique on the page (`kw-f2-code`, `kw-f2-code-hint`, `kw-item3`).
struct HostedPageViewBuilder {
    /// The forms built so far.
    private var formCount = 0
    /// The list items built so far.
    private var itemCount = 0
    /// The forms of list items, for the error summary.
    private(set) var itemForms: [HostedFormView] = []

    /// The view of `form`, or nil when it posts somewhere ``HostedURLPolicy`` refuses. `describedBy`
    /// is the id of what the button acts on (a list item's title).
    mutating func form(_ form: HostedForm, describedBy: String?) -> HostedFormView? {
        guard HostedURLPolicy.isFormAction(form.action) else { return nil }
        formCount += 1
        let prefix = "kw-f\(formCount)"
        var used: Set<String> = []
        let fields = form.fields.map { field in
            var id = "\(prefix)-\(Self.idFragment(field.name))"
            while used.contains(id) { id += "-\(used.count)" }
            used.insert(id)
            return Self.field(field, id: id)
        }
        let note = form.note ?? ""
        let noteId = "\(prefix)-note"
        let icon = form.iconURL.flatMap { HostedURLPolicy.isHTTPS($0) ? $0 : nil }
        let describers = [describedBy, note.isEmpty ? nil : noteId].compactMap { $0 }
        return HostedFormView(
            action: form.action, csrfToken: form.csrfToken,
            hidden: form.hidden.map { HostedHiddenView(name: $0.name, value: $0.value) }, fields: fields,
            submitLabel: form.submitLabel, style: form.style.rawValue, disabled: form.disabled,
            hasIcon: icon != nil, iconURL: icon ?? "",
            hasNote: !note.isEmpty, note: note, noteId: noteId,
            hasButtonDescribedBy: !describers.isEmpty, buttonDescribedBy: describers.joined(separator: " "),
            hasPasskey: form.passkey != nil, passkeyMode: form.passkey?.mode.rawValue ?? "",
            passkeyOptions: form.passkey?.optionsJSON ?? "", passkeyUnsupported: form.passkey?.unsupportedText ?? "",
            passkeyFailed: form.passkey?.failedText ?? "", passkeyConditional: form.passkey?.conditional ?? false)
    }

    /// The views of `displays`, consecutive labelled values grouped into one.
    mutating func displays(_ displays: [HostedDisplay]) -> [HostedDisplayView] {
        var views: [HostedDisplayView] = []
        var values: [HostedValueView] = []
        func flushValues() {
            guard !values.isEmpty else { return }
            views.append(Self.display(isValues: true, values: values))
            values = []
        }
        for display in displays {
            if case .value(let label, let value) = display {
                values.append(HostedValueView(label: label, value: value))
                continue
            }
            flushValues()
            if let view = self.display(display) { views.append(view) }
        }
        flushValues()
        return views
    }

    /// The view of one display other than a value, or nil for a QR code that cannot be encoded or
    /// an image that is not `https`.
    private mutating func display(_ display: HostedDisplay) -> HostedDisplayView? {
        switch display {
        case .value(let label, let value):
            return Self.display(isValues: true, values: [HostedValueView(label: label, value: value)])
        case .key(let label, let value):
            let characters = Array(value.filter { !$0.isWhitespace })
            let groups = stride(from: 0, to: characters.count, by: 4).map {
                String(characters[$0..<min($0 + 4, characters.count)])
            }
            itemCount += 1
            return Self.display(isKey: true, label: label, labelId: "kw-key\(itemCount)", keyGroups: groups)
        case .qrCode(let label, let data):
            guard let svg = QRCodeSVG(data: data) else { return nil }
            return Self.display(isQRCode: true, label: label, qrExtent: String(svg.extent), qrPath: svg.path)
        case .list(let label, let items, let actions):
            itemCount += 1
            let labelId = "kw-list\(itemCount)"
            let views = items.map { item in
                itemCount += 1
                let titleId = "kw-item\(itemCount)"
                let forms = item.forms.compactMap { self.form($0, describedBy: titleId) }
                itemForms += forms
                return HostedListItemView(
                    title: item.title, titleId: titleId, hasDetail: !(item.detail ?? "").isEmpty,
                    detail: item.detail ?? "", hasForms: !forms.isEmpty, form: forms)
            }
            let actionViews = actions.compactMap { self.form($0, describedBy: labelId) }
            itemForms += actionViews
            return Self.display(isList: true, label: label, labelId: labelId, items: views, actions: actionViews)
        case .text(let text):
            return Self.display(isText: true, label: text)
        case .image(let url, let alt):
            guard HostedURLPolicy.isHTTPS(url) else { return nil }
            return Self.display(isImage: true, label: alt, imageURL: url)
        }
    }

    /// A display view with every value not given empty.
    private static func display(
        isValues: Bool = false, isKey: Bool = false, isQRCode: Bool = false, isList: Bool = false,
        isText: Bool = false, isImage: Bool = false, label: String = "", labelId: String = "",
        values: [HostedValueView] = [], keyGroups: [String] = [], qrExtent: String = "", qrPath: String = "",
        items: [HostedListItemView] = [], actions: [HostedFormView] = [], imageURL: String = ""
    ) -> HostedDisplayView {
        HostedDisplayView(
            isValues: isValues, isKey: isKey, isQRCode: isQRCode, isList: isList, isText: isText, isImage: isImage,
            label: label, labelId: labelId, values: values, keyGroups: keyGroups, qrExtent: qrExtent, qrPath: qrPath,
            hasItems: !items.isEmpty, items: items, hasActions: !actions.isEmpty, actions: actions, imageURL: imageURL)
    }

    /// The view of `field` with element id `id`.
    ///
    /// A code field is a text input with `inputmode="numeric"` and, unless it names another,
    /// `autocomplete="one-time-code"`. A password's value is never written into the page. A
    /// checkbox posts `on` and is ticked when its value is `on` or `true`. Lengths and the pattern
    /// apply to text inputs only.
    static func field(_ field: HostedField, id: String) -> HostedFieldView {
        let isCheckbox = field.kind == .checkbox
        let isSelect = field.kind == .select
        let isInput = !isCheckbox && !isSelect
        let autocomplete = field.autocomplete ?? (field.kind == .code ? "one-time-code" : "")
        let value = field.kind == .password || isCheckbox ? "" : field.value ?? ""
        let hint = field.hint ?? ""
        let error = field.error ?? ""
        let describedBy = [hint.isEmpty ? nil : "\(id)-hint", error.isEmpty ? nil : "\(id)-error"].compactMap { $0 }
        let inputType =
            switch field.kind {
            case .email: "email"
            case .tel: "tel"
            case .password: "password"
            case .checkbox: "checkbox"
            case .text, .code, .select: "text"
            }
        let link = field.link.flatMap { HostedURLPolicy.isLinkTarget($0.href) ? $0 : nil }
        return HostedFieldView(
            id: id, name: field.name, label: field.label, isInput: isInput, isCheckbox: isCheckbox,
            isSelect: isSelect, isCode: field.kind == .code, isVerbatim: field.kind == .email || field.kind == .code,
            inputType: inputType, required: field.required, optional: !field.required && !isCheckbox,
            hasValue: !value.isEmpty, value: value,
            checked: isCheckbox && ["on", "true"].contains(field.value?.lowercased() ?? ""),
            hasAutocomplete: !autocomplete.isEmpty, autocomplete: autocomplete,
            hasMinLength: isInput && field.minLength != nil, minLength: field.minLength.map(String.init) ?? "",
            hasMaxLength: isInput && field.maxLength != nil, maxLength: field.maxLength.map(String.init) ?? "",
            hasPattern: isInput && field.pattern != nil, pattern: field.pattern ?? "",
            hasHint: !hint.isEmpty, hint: hint, hintId: "\(id)-hint",
            hasError: !error.isEmpty, error: error, errorId: "\(id)-error",
            hasDescribedBy: !describedBy.isEmpty, describedBy: describedBy.joined(separator: " "),
            options: field.options.map {
                HostedOptionView(value: $0.value, label: $0.label, selected: field.value == $0.value)
            },
            link: link.map { [HostedLinkView(text: $0.text, href: $0.href)] } ?? [])
    }

    /// `name` reduced to the characters of an id (letters, digits, `-`, `_`; others become `-`).
    static func idFragment(_ name: String) -> String {
        let fragment = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "-" })
        return fragment.isEmpty ? "field" : fragment
    }
}
