import Foundation

/// Payload of a `setupSms` step: collect or confirm the phone number that receives codes.
public struct SetupSmsPayload: Codable, Sendable, Equatable {
    /// The phone number already on the account, masked, if any.
    public var existingPhone: String?

    /// Creates a phone setup payload.
    ///
    /// - Parameter existingPhone: The phone number already on the account, masked, if any.
    public init(existingPhone: String? = nil) {
        self.existingPhone = existingPhone
    }
}
