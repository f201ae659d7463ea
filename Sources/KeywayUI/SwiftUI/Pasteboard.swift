#if canImport(SwiftUI)
    #if canImport(UIKit)
        import UIKit
    #elseif canImport(AppKit)
        import AppKit
    #endif

    /// The system's pasteboard, for a screen's "Copy" (an authenticator key).
    @MainActor
    enum Pasteboard {
        /// Puts `text` on the general pasteboard.
        static func copy(_ text: String) {
            #if canImport(UIKit)
                UIPasteboard.general.string = text
            #elseif canImport(AppKit)
                NSPasteboard.general.clearContents()
                NSPasteboard.general.setString(text, forType: .string)
            #endif
        }
    }
#endif
