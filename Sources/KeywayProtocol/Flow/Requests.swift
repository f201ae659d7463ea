/// Body of `POST /v1/flows`.
public struct StartFlowRequest: Codable, Sendable, Equatable {
    /// What the flow is for.
    public var flowType: FlowType
    /// The user identifier: an email address or a phone number. Empty (or absent) only with
    /// ``passkey``.
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
    /// The OpenID Connect `nonce` the ID token of this sign-in must carry.
    public var nonce: String?
    /// The scopes the tokens are asked for, space separated (`openid email offline_access` when
    /// absent); each must be allowed for the application, or the flow answers `invalid_scope`.
    public var scope: String?
    /// A redirect URI the application registered, when the client wants it checked; the code is
    /// then redeemed with the same `redirect_uri`.
    public var redirectUri: String?
    /// An opaque value handed back unchanged in the completed step.
    public var state: String?
    /// A guest's access token (instead of `Authorization: Bearer …`): a `signup` flow then
    /// upgrades that guest, keeping its user ID, and a `signin` flow hands the guest over to the
    /// account signed in to (`guest.merged`).
    public var guestToken: Sensitive<String>?
    /// `true` to sign in with a discoverable passkey, without an identifier: the first step is
    /// `passkeyAuthenticate` with options that name no credential, and the passkey the user picks
    /// names the account. A `signin` flow only, where the policy offers passkeys.
    public var passkey: Bool?

    /// Creates a start body with the given values.
    ///
    /// - Parameters:
    ///   - flowType: What the flow is for.
    ///   - identifier: The user identifier.
    ///   - codeChallenge: The PKCE code challenge.
    ///   - codeChallengeMethod: The challenge method: always `S256`, the default.
    ///   - startToken: A pre-issued token resuming a specific start path.
    ///   - inviteCode: An invitation code, where sign-up requires one.
    ///   - device: What the client tells the server about device trust.
    ///   - nonce: The `nonce` the ID token must carry.
    ///   - scope: The scopes asked for, space separated.
    ///   - redirectUri: A registered redirect URI the code will be redeemed with.
    ///   - state: An opaque value handed back in the completed step.
    public init(
        flowType: FlowType, identifier: String, codeChallenge: String, codeChallengeMethod: String = "S256",
        startToken: Sensitive<String>? = nil, inviteCode: Sensitive<String>? = nil, device: DeviceHint? = nil,
        nonce: String? = nil, scope: String? = nil, redirectUri: String? = nil, state: String? = nil
    ) {
        self.nonce = nonce
        self.scope = scope
        self.redirectUri = redirectUri
        self.state = state
        self.device = device
        self.flowType = flowType
        self.identifier = identifier
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.startToken = startToken
        self.inviteCode = inviteCode
    }

    private enum CodingKeys: String, CodingKey {
        case flowType, identifier, codeChallenge, codeChallengeMethod, startToken, inviteCode, device, nonce, scope
        case redirectUri, state, guestToken, passkey
    }

    /// Decodes a start body; `identifier` may be absent (a passkey sign-in), and is then empty.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        flowType = try container.decode(FlowType.self, forKey: .flowType)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier) ?? ""
        codeChallenge = try container.decode(String.self, forKey: .codeChallenge)
        codeChallengeMethod = try container.decode(String.self, forKey: .codeChallengeMethod)
        startToken = try container.decodeIfPresent(Sensitive<String>.self, forKey: .startToken)
        inviteCode = try container.decodeIfPresent(Sensitive<String>.self, forKey: .inviteCode)
        device = try container.decodeIfPresent(DeviceHint.self, forKey: .device)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        redirectUri = try container.decodeIfPresent(String.self, forKey: .redirectUri)
        state = try container.decodeIfPresent(String.self, forKey: .state)
        guestToken = try container.decodeIfPresent(Sensitive<String>.self, forKey: .guestToken)
        passkey = try container.decodeIfPresent(Bool.self, forKey: .passkey)
    }
}

/// Body of the `submitCode` action.
public struct SubmitCodeRequest: Codable, Sendable, Equatable {
    /// The one-time code the user entered.
    public var code: Sensitive<String>

    /// Creates a code body.
    ///
    /// - Parameter code: The one-time code the user entered.
    public init(code: Sensitive<String>) {
        self.code = code
    }
}

/// Body of the `openLink` action (`POST /v1/flows/{flowId}/link`): the token of a sign-in link
/// the app was opened with.
public struct SubmitLinkRequest: Codable, Sendable, Equatable {
    /// The link's token: its last path segment.
    public var token: Sensitive<String>

    /// Creates a link body.
    ///
    /// - Parameter token: The link's token.
    public init(token: Sensitive<String>) {
        self.token = token
    }
}

/// Body of the `selectMethod` action.
public struct SelectMethodRequest: Codable, Sendable, Equatable {
    /// The ``MethodOption/id`` of the chosen method.
    public var methodID: String

    /// Creates a method choice body.
    ///
    /// - Parameter methodID: The ``MethodOption/id`` of the chosen method.
    public init(methodID: String) {
        self.methodID = methodID
    }

    private enum CodingKeys: String, CodingKey {
        case methodID = "methodId"
    }
}

/// Body of the `submitPhone` action.
public struct SubmitPhoneRequest: Codable, Sendable, Equatable {
    /// The phone number, in E.164 form (`+14155550123`) or with spaces and dashes.
    public var phone: String

    /// Creates a phone number body.
    ///
    /// - Parameter phone: The phone number.
    public init(phone: String) {
        self.phone = phone
    }
}

/// Body of the `submitPassword` action.
public struct SubmitPasswordRequest: Codable, Sendable, Equatable {
    /// The password the user entered.
    public var password: Sensitive<String>

    /// Creates a password body.
    ///
    /// - Parameter password: The password the user entered.
    public init(password: Sensitive<String>) {
        self.password = password
    }
}
