import Crypto
import Foundation

/// The small stylesheet that carries a project's primary colour to the hosted pages, served from
/// a route of its own: the Content-Security-Policy forbids inline styles, so the colour cannot be
/// written into the page. It sets the custom properties the built-in stylesheet reads:
/// `--kw-primary` (button background), `--kw-on-primary` (button text: black or white, whichever
/// contrasts more, at least 4.58:1) and `--kw-accent` (links and focus rings: the colour darkened,
/// or lightened for the dark scheme, until it reaches 4.5:1 against the card).
enum HostedThemeStylesheet {
    /// The primary colour when a theme has none or an invalid one.
    static let defaultPrimary = "#2f5bea"
    /// The card's background in the light scheme (must match `keyway.css`).
    static let lightCard = "#ffffff"
    /// The card's background in the dark scheme (must match `keyway.css`).
    static let darkCard = "#1a1d23"
    /// The contrast links and body text need (WCAG 2.2 AA).
    static let textContrast = 4.5

    /// `value` in lower case when it is a `#rrggbb` colour, otherwise nil.
    static func validColor(_ value: String?) -> String? {
        guard let value, value.count == 7, value.first == "#",
            value.dropFirst().allSatisfy(\.isHexDigit)
        else { return nil }
        return value.lowercased()
    }

    /// The stylesheet of `theme`'s colour (the default colour when the theme's is missing or not `#rrggbb`).
    static func css(_ theme: HostedTheme) -> String {
        let primary = validColor(theme.primaryColor) ?? defaultPrimary
        let rgb = HostedColor(hex: primary)
        let onPrimary = rgb.contrast(with: .white) >= rgb.contrast(with: .black) ? "#ffffff" : "#000000"
        let lightAccent = rgb.adjusted(toward: .black, against: HostedColor(hex: lightCard), reaching: textContrast)
        let darkAccent = rgb.adjusted(toward: .white, against: HostedColor(hex: darkCard), reaching: textContrast)
        return ":root{--kw-primary:\(primary);--kw-on-primary:\(onPrimary);--kw-accent:\(lightAccent.hex)}\n"
            + "@media (prefers-color-scheme: dark){:root{--kw-accent:\(darkAccent.hex)}}\n"
    }

    /// Where the controller serves ``css(_:)`` of `theme`: `/login/assets/theme/<rrggbb>.css`, named
    /// after the colour it is made from (every instance serves the same file for it, and it can be
    /// cached for long); nil when the theme has no valid colour of its own (the built-in
    /// stylesheet's default applies).
    static func path(_ theme: HostedTheme) -> String? {
        guard let color = validColor(theme.primaryColor) else { return nil }
        return "/login/assets/theme/\(color.dropFirst()).css"
    }

    /// The stylesheet served at `/login/assets/theme/<file>`, or nil for a name ``path(_:)`` never gives.
    static func css(file: String) -> String? {
        guard file.hasSuffix(".css"), let color = validColor("#" + file.dropLast(4)), color.dropFirst() == file.dropLast(4)
        else { return nil }
        return css(HostedTheme(name: "", primaryColor: color))
    }
}

/// An sRGB colour, for the contrast computations of ``HostedThemeStylesheet``.
struct HostedColor: Sendable, Equatable {
    /// The channels, 0…255.
    var red: Double, green: Double, blue: Double

    /// Black.
    static let black = HostedColor(red: 0, green: 0, blue: 0)
    /// White.
    static let white = HostedColor(red: 255, green: 255, blue: 255)

    /// A colour from its channels.
    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of a valid `#rrggbb` string (black for anything else).
    init(hex: String) {
        let value = UInt32(hex.dropFirst(), radix: 16) ?? 0
        self.init(
            red: Double((value >> 16) & 0xff), green: Double((value >> 8) & 0xff), blue: Double(value & 0xff))
    }

    /// `#rrggbb`.
    var hex: String {
        String(format: "#%02x%02x%02x", Int(red.rounded()), Int(green.rounded()), Int(blue.rounded()))
    }

    /// The relative luminance (WCAG 2.2).
    var luminance: Double {
        func linear(_ channel: Double) -> Double {
            let c = channel / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The contrast ratio with `other`, 1…21.
    func contrast(with other: HostedColor) -> Double {
        let (a, b) = (luminance + 0.05, other.luminance + 0.05)
        return max(a, b) / min(a, b)
    }

    /// This colour mixed with `target` a fraction `amount` (0…1) of the way.
    func mixed(with target: HostedColor, amount: Double) -> HostedColor {
        HostedColor(
            red: red + (target.red - red) * amount, green: green + (target.green - green) * amount,
            blue: blue + (target.blue - blue) * amount)
    }

    /// This colour, mixed with `target` in steps of 5 % until it contrasts `ratio` with `background`
    /// (`target` itself at worst).
    func adjusted(toward target: HostedColor, against background: HostedColor, reaching ratio: Double) -> HostedColor {
        for step in 0...20 {
            let candidate = mixed(with: target, amount: Double(step) / 20)
            // Compare the colour as it will be written, rounded to whole channels.
            let written = HostedColor(hex: candidate.hex)
            if written.contrast(with: background) >= ratio { return written }
        }
        return target
    }
}
