/// The SDK's source of randomness (PKCE verifiers). Injectable for deterministic tests; the
/// default draws from the system CSPRNG.
public protocol KeywayRandom: Sendable {
    /// `count` random bytes.
    ///
    /// - Parameter count: How many bytes.
    /// - Returns: `count` bytes, uniformly random; the SDK's PKCE verifiers depend on them.
    func bytes(_ count: Int) -> [UInt8]
}

/// The system CSPRNG (`SystemRandomNumberGenerator`).
public struct SystemKeywayRandom: KeywayRandom {
    /// The system CSPRNG.
    public init() {}

    /// `count` bytes from `SystemRandomNumberGenerator`.
    ///
    /// - Parameter count: How many bytes.
    /// - Returns: The random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
