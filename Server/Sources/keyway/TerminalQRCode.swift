import Foundation
import KeywayQR

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Terminal {
    /// Whether QR codes are drawn: when standard error is a terminal, or when `KEYWAY_QR` is `1`
    /// (`0` turns them off). Scripts reading standard error get the text only.
    var drawsQRCodes: Bool {
        switch ProcessInfo.processInfo.environment["KEYWAY_QR"] {
        case "1": true
        case "0": false
        default: isatty(STDERR_FILENO) != 0
        }
    }

    /// Draws `text` as a QR code on standard error (light modules as blocks, for dark terminals),
    /// when ``drawsQRCodes``. Text too long for a QR code is skipped: it is printed anyway.
    func qrCode(_ text: String) {
        guard drawsQRCodes, let code = try? QRCode(text: text, correction: .low) else { return }
        status(code.terminalText())
    }
}
