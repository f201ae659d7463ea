// Browser/HostedPages/Rendering/ — a hosted page as a model, and its drawing as HTML with the mustache templates.
//
// - `HostedPage.swift`: all a page shows, independent of HTML, with `HostedTheme`, `HostedForm` and kin.
// - `HostedPageRenderer.swift`: a `HostedPage` drawn as a full HTML document; the built-in stylesheet.
// - `HostedPageView+Building.swift`: the view built from a page, leaving out what `HostedURLPolicy` refuses.
// - `HostedPageView.swift`: the page flattened into the plain values the templates read.
// - `HostedPageViewBuilder.swift`: builds forms and displays, numbering element ids (`kw-f2-code`).
// - `HostedStrings.swift`: every sentence of the pages by key, from `Resources/HostedPages/strings/`.
// - `HostedThemeStylesheet.swift`: the stylesheet of a project's primary colour, at WCAG contrasts.
// - `HostedURLPolicy.swift`: which URLs a page may link to, post to, or load a logo or stylesheet from.
// - `QRCodeSVG.swift`: a QR code as an inline SVG path with its quiet zone.
