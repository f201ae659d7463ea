/// A public JSON Web Key (RFC 7517). Keyway publishes EC P-256 keys; other members are kept so a
/// key set from another issuer decodes.
public struct JSONWebKey: Codable, Sendable, Equatable {
    /// Key type: `EC` for Keyway's keys.
    public var kty: String
    /// Key ID: the RFC 7638 thumbprint for Keyway's keys.
    public var kid: String?
    /// Intended use: `sig`.
    public var use: String?
    /// Algorithm: `ES256`.
    public var alg: String?
    /// Curve: `P-256`.
    public var crv: String?
    /// The x coordinate, base64url.
    public var x: String?
    /// The y coordinate, base64url.
    public var y: String?
    /// RSA modulus, base64url.
    public var n: String?
    /// RSA exponent, base64url.
    public var e: String?

    /// Creates a key with the given members; those not given are absent.
    ///
    /// - Parameters:
    ///   - kty: Key type.
    ///   - kid: Key ID.
    ///   - use: Intended use.
    ///   - alg: Algorithm.
    ///   - crv: Curve, for an EC key.
    ///   - x: The x coordinate, base64url, for an EC key.
    ///   - y: The y coordinate, base64url, for an EC key.
    ///   - n: The modulus, base64url, for an RSA key.
    ///   - e: The exponent, base64url, for an RSA key.
    public init(
        kty: String, kid: String? = nil, use: String? = nil, alg: String? = nil, crv: String? = nil,
        x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil
    ) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
    }
}

/// A JSON Web Key Set.
public struct JSONWebKeySet: Codable, Sendable, Equatable {
    /// The keys of the set.
    public var keys: [JSONWebKey]

    /// Creates a key set.
    ///
    /// - Parameter keys: The keys of the set.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }
}
