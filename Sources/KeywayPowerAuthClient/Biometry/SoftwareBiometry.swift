import Foundation

/// A ``Biometry`` without a sensor, for tests and for Linux: keys are kept in memory and released
/// when `check` approves the reason. It protects nothing by itself; use it where no biometric
/// hardware exists.
public actor SoftwareBiometry: Biometry {
    private var keys: [String: Data] = [:]
    private let state: BiometryAvailability
    private let check: @Sendable (String) async -> Bool

    /// A stand-in biometry.
    ///
    /// - Parameters:
    ///   - availability: What ``availability()`` answers (``BiometryAvailability/available(_:)``
    ///     with ``BiometryKind/software`` by default).
    ///   - check: Decides each check from its reason: `true` passes (the default).
    public init(
        availability: BiometryAvailability = .available(.software), check: @escaping @Sendable (String) async -> Bool = { _ in true }
    ) {
        self.state = availability
        self.check = check
    }

    /// What the stand-in was built with.
    ///
    /// - Returns: The availability.
    public func availability() async -> BiometryAvailability { state }

    /// Keeps the key in memory.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - account: Its name.
    /// - Throws: ``BiometryError/unavailable(_:)`` unless available.
    public func storeKey(_ key: Data, account: String) async throws(BiometryError) {
        guard case .available = state else { throw .unavailable(state) }
        keys[account] = key
    }

    /// Runs `check`, then gives the key.
    ///
    /// - Parameters:
    ///   - account: Its name.
    ///   - reason: Passed to `check`.
    /// - Returns: The key.
    /// - Throws: ``BiometryError/unavailable(_:)``, ``BiometryError/notAuthenticated`` or
    ///   ``BiometryError/keyMissing``.
    public func readKey(account: String, reason: String) async throws(BiometryError) -> Data {
        guard case .available = state else { throw .unavailable(state) }
        guard await check(reason) else { throw .notAuthenticated }
        guard let key = keys[account] else { throw .keyMissing }
        return key
    }

    /// Forgets the key.
    ///
    /// - Parameter account: Its name.
    public func deleteKey(account: String) async throws(BiometryError) {
        keys[account] = nil
    }

    /// The accounts holding a key, sorted (for tests).
    ///
    /// - Returns: The accounts.
    public func accounts() -> [String] { keys.keys.sorted() }
}
