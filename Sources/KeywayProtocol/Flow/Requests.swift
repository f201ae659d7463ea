/// Body of `POST /v1/flows`.
public struct StartFlowRequest: Codable, Sendable, Equatable {
    public var flowType: FlowType
    /// The user identifier: an email address for email sign-in.
    public var identifier: String
    /// The PKCE code challenge (RFC 7636), base64url of SHA-256 of the verifier.
    public var codeChallenge: String
    /// Always `S256`.
    public var codeChallengeMethod: String
    /// A pre-issued token resuming a specific start path.
    public var startToken: Sensitive<String>?
    /// An invitation code, where sign-up requires one.
    public var inviteCode: Sensitive<String>?
    /// Device trust: the trusted device the client holds, and whether it can enrol one.
    public var device: DeviceHint?

    public init(
        flowType: FlowType, identifier: String, codeChallenge: String, codeChallengeMethod: String = "S256",
        startToken: Sensitive<String>? = nil, inviteCode: Sensitive<String>? = nil, device: DeviceHint? = nil
    ) {
        self.device = device
        self.flowType = flowType
        self.identifier = identifier
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.startToken = startToken
        self.inviteCode = inviteCode
    }
}

/// Body of the `submitCode` action.
public struct SubmitCodeRequest: Codable, Sendable, Equatable {
    public var code: Sensitive<String>

    public init(code: Sensitive<String>) {
        self.code = code
    }
}

/// Body of the `selectMethod` action.
public struct SelectMethodRequest: Codable, Sendable, Equatable {
    /// The ``MethodOption/id`` of the chosen method.
    public var methodId: String

    public init(methodId: String) {
        self.methodId = methodId
    }
}

/// Body of the `submitPhone` action.
public struct SubmitPhoneRequest: Codable, Sendable, Equatable {
    /// The phone number, in E.164 form (`+14155550123`) or with spaces and dashes.
    public var phone: String

    public init(phone: String) {
        self.phone = phone
    }
}

/// Body of the `submitPassword` action.
public struct SubmitPasswordRequest: Codable, Sendable, Equatable {
    public var password: Sensitive<String>

    public init(password: Sensitive<String>) {
        self.password = password
    }
}
