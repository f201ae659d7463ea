import Foundation

/// Payload of a `deviceEnroll` step. The SDK answers it by itself: it creates a device key,
/// signs ``DeviceSigningInput/enrolment(challenge:flowID:configID:audience:keyThumbprint:)`` and
/// sends ``EnrollDeviceRequest``, or `skip`s when it cannot keep a key.
public struct DeviceEnrollPayload: Codable, Sendable, Equatable {
    /// A fresh, single-use challenge (base64url).
    public var challenge: String
    /// The server's issuer URL, which the signature binds.
    public var audience: String

    /// Creates an enrolment payload with the given values.
    ///
    /// - Parameters:
    ///   - challenge: A fresh, single-use challenge (base64url).
    ///   - audience: The server's issuer URL.
    public init(challenge: String, audience: String) {
        self.challenge = challenge
        self.audience = audience
    }
}

/// Payload of a `deviceChallenge` step. The SDK answers it by itself with a signature of
/// ``DeviceSigningInput/challenge(challenge:flowID:configID:audience:deviceID:)`` by the
/// device's key (``DeviceSignatureRequest``), or `skip`s when the key is gone.
public struct DeviceChallengePayload: Codable, Sendable, Equatable {
    /// A fresh, single-use challenge (base64url).
    public var challenge: String
    /// The server's issuer URL, which the signature binds.
    public var audience: String
    /// The device being proven.
    public var deviceID: String

    /// Creates a device challenge payload with the given values.
    ///
    /// - Parameters:
    ///   - challenge: A fresh, single-use challenge (base64url).
    ///   - audience: The server's issuer URL.
    ///   - deviceID: The device being proven.
    public init(challenge: String, audience: String, deviceID: String) {
        self.challenge = challenge
        self.audience = audience
        self.deviceID = deviceID
    }

    private enum CodingKeys: String, CodingKey {
        case challenge, audience, deviceID = "deviceId"
    }
}

/// Payload of an `awaitApproval` step: the sign-in waits for one of the user's trusted devices to
/// approve it, either pushed to it or by scanning ``qrData``.
public struct AwaitApprovalPayload: Codable, Sendable, Equatable {
    /// A short number the approving device shows too: the user checks that both match.
    public var matchingNumber: String
    /// What a trusted device scans to approve this exact request (single use, bound to the flow).
    public var qrData: Sensitive<String>
    /// When the request expires.
    public var expiresAt: Date
    /// Seconds between polls of the `poll` action; polling faster is refused.
    public var pollInterval: Int

    /// Creates an approval payload with the given values.
    ///
    /// - Parameters:
    ///   - matchingNumber: The number both devices show.
    ///   - qrData: What a trusted device scans to approve the request.
    ///   - expiresAt: When the request expires.
    ///   - pollInterval: Seconds between polls of the `poll` action.
    public init(matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date, pollInterval: Int) {
        self.matchingNumber = matchingNumber
        self.qrData = qrData
        self.expiresAt = expiresAt
        self.pollInterval = pollInterval
    }
}
