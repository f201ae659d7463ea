#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(CoreImage)
        import CoreImage
        import CoreImage.CIFilterBuiltins
    #endif

    /// A QR code of `text`, drawn by Core Image (ISO/IEC 18004, correction level M); the text itself
    /// where Core Image does not exist.
    @MainActor
    struct QRCodeView: View {
        let text: String
        /// What VoiceOver says of the picture.
        var label = "QR code"

        var body: some View {
            #if canImport(CoreImage)
                if let image = Self.image(for: text) {
                    Image(image, scale: 1, label: Text(label))
                        .interpolation(.none)
                        .resizable()
                        .scaledToFit()
                } else {
                    Text(text).font(.footnote.monospaced())
                }
            #else
                Text(text).font(.footnote.monospaced())
            #endif
        }

        #if canImport(CoreImage)
            /// One Core Image context for every QR code: a context is costly to make (it sets up
            /// a renderer), and it is safe to use from several threads.
            nonisolated(unsafe) private static let context = CIContext()

            static func image(for text: String) -> CGImage? {
                let filter = CIFilter.qrCodeGenerator()
                filter.message = Data(text.utf8)
                filter.correctionLevel = "M"
                guard let output = filter.outputImage?.transformed(by: CGAffineTransform(scaleX: 8, y: 8)) else {
                    return nil
                }
                return context.createCGImage(output, from: output.extent)
            }
        #endif
    }
#endif
