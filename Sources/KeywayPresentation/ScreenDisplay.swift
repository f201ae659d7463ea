import Foundation
import KeywayProtocol

/// Something a screen shows that is not an input.
public enum ScreenDisplay: Sendable, Equatable {
    /// A secret to type by hand, grouped for reading (an authenticator's Base32 secret).
    case secret(label: String, value: Sensitive<String>)
    /// Data to show as a QR code (an otpauth URL, an approval's QR data).
    case qrCode(label: String, data: Sensitive<String>)
    /// A short value to compare (an approval's matching number).
    case emphasis(label: String, value: String)
    /// A list of items with details (the account's methods and devices).
    case list(title: String, items: [ScreenListItem])
}

/// One row of a ``ScreenDisplay/list(title:items:)``.
public struct ScreenListItem: Sendable, Equatable {
    /// What the row is (`Email codes`, a device's name).
    public var title: String
    /// More about it (`a•••@example.com`, `hardware key, trusted until …`).
    public var detail: String?

    /// A row with its title and detail.
    ///
    /// - Parameters:
    ///   - title: What the row is.
    ///   - detail: More about it, if anything.
    public init(title: String, detail: String? = nil) {
        self.title = title
        self.detail = detail
    }
}
