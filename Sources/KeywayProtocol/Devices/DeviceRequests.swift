/// What a client tells the server about device trust when it starts a flow.
public struct DeviceHint: Codable, Sendable, Equatable {
    /// The trusted device this client holds a key for, for this user, app and project.
    public var deviceID: String?
    /// Whether the client can keep a device key (and so answer `deviceEnroll`). The server only
    /// issues device steps to clients that say so.
    public var canEnrol: Bool

    /// Creates a device hint with the given values.
    ///
    /// - Parameters:
    ///   - deviceID: The trusted device this client holds a key for, if any.
    ///   - canEnrol: Whether the client can keep a device key.
    public init(deviceID: String? = nil, canEnrol: Bool) {
        self.deviceID = deviceID
        self.canEnrol = canEnrol
    }

    private enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId", canEnrol
    }
}

/// Body of the `enrollDevice` action.
public struct EnrollDeviceRequest: Codable, Sendable, Equatable {
    /// The device key's public half.
    public var publicKey: JSONWebKey
    /// ES256 signature (raw `r‖s`, base64url) of the enrolment input.
    public var signature: String
    /// A name for the device ("Alice's iPhone"), 1…100 characters.
    public var name: String
    /// Whether the key is kept in hardware it cannot leave (Secure Enclave).
    public var hardwareBacked: Bool
    /// An App Attest assertion over the enrolment input (``DeviceSigningInput/enrolment(challenge:flowID:configID:audience:keyThumbprint:)``),
    /// when the app instance can attest itself.
    public var appAttest: AppAttestEvidence?

    /// Creates an enrolment body with the given values.
    ///
    /// - Parameters:
    ///   - publicKey: The device key's public half.
    ///   - signature: ES256 signature (raw `r‖s`, base64url) of the enrolment input.
    ///   - name: A name for the device, 1…100 characters.
    ///   - hardwareBacked: Whether the key is kept in hardware it cannot leave.
    ///   - appAttest: An App Attest assertion over the enrolment input, when the app can make one.
    public init(
        publicKey: JSONWebKey, signature: String, name: String, hardwareBacked: Bool, appAttest: AppAttestEvidence? = nil
    ) {
        self.publicKey = publicKey
        self.signature = signature
        self.name = name
        self.hardwareBacked = hardwareBacked
        self.appAttest = appAttest
    }
}

/// Body of the `proveDevice` action: the device key's signature of the challenge input.
public struct DeviceSignatureRequest: Codable, Sendable, Equatable {
    /// ES256 signature (raw `r‖s`, base64url).
    public var signature: String

    /// Creates a signature body.
    ///
    /// - Parameter signature: ES256 signature (raw `r‖s`, base64url) of the challenge input.
    public init(signature: String) {
        self.signature = signature
    }
}
