#if canImport(SwiftUI)
    import SwiftUI

    /// How the prebuilt screens look: colours, fonts, corner radius and a logo.
    public struct KeywayTheme: Sendable {
        /// The primary button's background and the accent of links.
        public var accentColor: Color
        /// The colour of error banners and refused inputs.
        public var errorColor: Color
        /// The title's font.
        public var titleFont: Font
        /// The font of sentences and inputs.
        public var bodyFont: Font
        /// The corner radius of buttons, inputs and banners.
        public var cornerRadius: CGFloat
        /// The name of an image in the app's asset catalogue, shown above the title.
        public var logoImageName: String?

        /// A theme; every part not given keeps the system look.
        ///
        /// - Parameters:
        ///   - accentColor: The primary button's background and the accent of links.
        ///   - errorColor: The colour of error banners and refused inputs.
        ///   - titleFont: The title's font.
        ///   - bodyFont: The font of sentences and inputs.
        ///   - cornerRadius: The corner radius of buttons, inputs and banners, in points.
        ///   - logoImageName: The name of an image in the app's asset catalogue, or `nil` for none.
        public init(
            accentColor: Color = .accentColor, errorColor: Color = .red, titleFont: Font = .title2.bold(),
            bodyFont: Font = .body, cornerRadius: CGFloat = 10, logoImageName: String? = nil
        ) {
            self.accentColor = accentColor
            self.errorColor = errorColor
            self.titleFont = titleFont
            self.bodyFont = bodyFont
            self.cornerRadius = cornerRadius
            self.logoImageName = logoImageName
        }

        /// The system look.
        public static let standard = KeywayTheme()
    }
#endif
