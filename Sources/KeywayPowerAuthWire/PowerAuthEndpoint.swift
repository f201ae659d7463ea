import KeywayPowerAuth

/// Which factor combinations a signed endpoint accepts: the factors every accepted signature
/// proves, and how many it proves at least.
public struct PowerAuthFactorRule: Sendable, Hashable {
    /// The factors every accepted signature proves.
    public let required: PowerAuthSignatureFactors
    /// How many factors an accepted signature proves at least.
    public let leastCount: Int

    /// A rule of `required` factors and at least `leastCount` of them.
    public init(required: PowerAuthSignatureFactors, leastCount: Int = 0) {
        self.required = required
        self.leastCount = max(leastCount, required.count)
    }

    /// Any signature of the activation (possession alone included).
    public static let any = PowerAuthFactorRule(required: [])
    /// Possession and at least one other factor: knowledge, biometry, or both.
    public static let twoFactors = PowerAuthFactorRule(required: .possession, leastCount: 2)

    /// Signatures proving at least `factors`.
    public static func atLeast(_ factors: PowerAuthSignatureFactors) -> PowerAuthFactorRule {
        PowerAuthFactorRule(required: factors)
    }

    /// Whether a signature proving `factors` is accepted.
    public func accepts(_ factors: PowerAuthSignatureFactors) -> Bool {
        factors.isSuperset(of: required) && factors.count >= leastCount
    }
}

/// One signed PowerAuth endpoint, declared once for every role: the path the device posts to, the
/// URI identifier its signature covers, the factors it accepts, and the `sharedInfo1` its body is
/// sealed with when it is encrypted (encrypt-then-sign).
///
/// The device SDK signs with it, the server verifies with it, and an app's backend puts its own
/// endpoints behind `KeywayBackend`'s middleware with one:
///
/// ```swift
/// let pay = PowerAuthEndpoint(
///     path: "/payments/pay", uriId: "/payments/pay", factors: .atLeast([.possession, .knowledge]),
///     sharedInfo1: .activationScopeGeneric)
/// ```
public struct PowerAuthEndpoint: Sendable, Hashable {
    /// The path the request is posted to (`/pa/v3/vault/unlock`).
    public let path: String
    /// The URI identifier the signature covers (`/pa/vault/unlock`).
    public let uriId: String
    /// The factor combinations accepted.
    public let factors: PowerAuthFactorRule
    /// The `sharedInfo1` of the body's envelope, both ways; `nil` when the body is not encrypted.
    public let sharedInfo1: EciesSharedInfo1?

    public init(path: String, uriId: String, factors: PowerAuthFactorRule, sharedInfo1: EciesSharedInfo1? = nil) {
        self.path = path
        self.uriId = uriId
        self.factors = factors
        self.sharedInfo1 = sharedInfo1
    }

    /// `POST /pa/v3/signature/validate`: any factors (the server also answers `GET`, `PUT` and
    /// `DELETE` here, signed over the canonical query).
    public static let signatureValidate = PowerAuthEndpoint(
        path: "/pa/v3/signature/validate", uriId: "/pa/signature/validate", factors: .any)
    /// `POST /pa/v3/activation/remove`: two factors or three.
    public static let activationRemove = PowerAuthEndpoint(
        path: "/pa/v3/activation/remove", uriId: "/pa/activation/remove", factors: .twoFactors)
    /// `POST /pa/v3/vault/unlock`: two factors or three, encrypted.
    public static let vaultUnlock = PowerAuthEndpoint(
        path: "/pa/v3/vault/unlock", uriId: "/pa/vault/unlock", factors: .twoFactors, sharedInfo1: .vaultUnlock)
    /// `POST /pa/v3/token/create`: any factors, encrypted.
    public static let tokenCreate = PowerAuthEndpoint(
        path: "/pa/v3/token/create", uriId: "/pa/token/create", factors: .any, sharedInfo1: .createToken)
    /// `POST /pa/v3/token/remove`: any factors.
    public static let tokenRemove = PowerAuthEndpoint(path: "/pa/v3/token/remove", uriId: "/pa/token/remove", factors: .any)
    /// `POST /pa/v3/recovery/confirm`: possession and knowledge, encrypted.
    public static let recoveryConfirm = PowerAuthEndpoint(
        path: "/pa/v3/recovery/confirm", uriId: "/pa/recovery/confirm", factors: .atLeast([.possession, .knowledge]),
        sharedInfo1: .confirmRecoveryCode)
}
