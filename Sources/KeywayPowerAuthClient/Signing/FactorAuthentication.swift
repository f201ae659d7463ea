import Foundation

/// The factors of a signature and what unlocks them: possession (the device's key) always, a
/// password for knowledge, a biometric check for biometry.
public struct FactorAuthentication: Sendable {
    /// The factors.
    public let factors: PowerAuthSignatureFactors
    /// The password, for knowledge.
    let password: String?
    /// The sentence of the biometric prompt, for biometry.
    let biometryReason: String?

    /// Possession alone (1FA).
    public static let possession = FactorAuthentication(factors: .possession, password: nil, biometryReason: nil)

    /// Possession and knowledge (2FA).
    ///
    /// - Parameter password: The password.
    /// - Returns: The authentication.
    public static func password(_ password: String) -> FactorAuthentication {
        FactorAuthentication(factors: [.possession, .knowledge], password: password, biometryReason: nil)
    }

    /// Possession and biometry (2FA).
    ///
    /// - Parameter reason: Why the app asks, shown by the biometric prompt.
    /// - Returns: The authentication.
    public static func biometry(reason: String) -> FactorAuthentication {
        FactorAuthentication(factors: [.possession, .biometry], password: nil, biometryReason: reason)
    }

    /// Possession, knowledge and biometry (3FA).
    ///
    /// - Parameters:
    ///   - password: The password.
    ///   - reason: Why the app asks, shown by the biometric prompt.
    /// - Returns: The authentication.
    public static func passwordAndBiometry(password: String, reason: String) -> FactorAuthentication {
        FactorAuthentication(factors: [.possession, .knowledge, .biometry], password: password, biometryReason: reason)
    }

    /// Any combination of one to three factors, by their `pa_signature_type` name
    /// (`possession`, `possession_knowledge`, `possession_biometry`,
    /// `possession_knowledge_biometry`, also `knowledge`…).
    ///
    /// - Parameters:
    ///   - typeName: The factors' name.
    ///   - password: The password, when knowledge is among them.
    ///   - biometryReason: The prompt's sentence, when biometry is among them.
    /// - Throws: ``ActivationError/invalidFactors(_:)`` for an unknown name or a missing password.
    public init(typeName: String, password: String? = nil, biometryReason: String? = nil) throws(ActivationError) {
        guard let factors = PowerAuthSignatureFactors(typeName: typeName), !factors.isEmpty else {
            throw .invalidFactors(
                "\"\(typeName)\" is not a factor combination (possession, possession_knowledge, possession_biometry, possession_knowledge_biometry).")
        }
        if factors.contains(.knowledge), password == nil {
            throw .invalidFactors("The knowledge factor needs the password.")
        }
        self.init(
            factors: factors, password: factors.contains(.knowledge) ? password : nil,
            biometryReason: factors.contains(.biometry) ? (biometryReason ?? "Confirm the signature") : nil)
    }

    private init(factors: PowerAuthSignatureFactors, password: String?, biometryReason: String?) {
        self.factors = factors
        self.password = password
        self.biometryReason = biometryReason
    }
}
