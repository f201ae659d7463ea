import Crypto
import Foundation
import KeywayPowerAuthWire

/// The scopes of ECIES (and of temporary keys).
enum EciesScope: Sendable, Equatable {
    /// Bound to the application (the master server key signs the temporary key).
    case application
    /// Bound to an activation (its server key signs the temporary key; `KEY_TRANSPORT` enters
    /// `SHARED_INFO_2_BASE` and the JWT key).
    case activation(id: String, transportKey: SymmetricKey)

    static func == (lhs: EciesScope, rhs: EciesScope) -> Bool {
        switch (lhs, rhs) {
        case (.application, .application): true
        case let (.activation(a, _), .activation(b, _)): a == b
        default: false
        }
    }
}

/// One request–response cycle of ECIES version 3.3 with a temporary key: seals the request and
/// opens its response.
struct EciesExchange: Sendable {
    let context: EciesContext
    let temporaryKeyID: String

    /// Prepares a cycle.
    ///
    /// - Parameters:
    ///   - key: The temporary key (its ID and public key).
    ///   - sharedInfo1: The endpoint's `SHARED_INFO_1`.
    ///   - scope: The scope.
    ///   - configuration: The application's credentials.
    init(key: TemporaryKey, sharedInfo1: EciesSharedInfo1, scope: EciesScope, configuration: PowerAuthConfiguration) throws(ActivationError) {
        let envelopeKey: EciesEnvelopeKey
        do {
            envelopeKey = try EciesEnvelopeKey.forRequest(publicKey: key.publicKey, sharedInfo1: sharedInfo1.bytes, version: .v33)
        } catch {
            throw .invalidResponse("The temporary key cannot be used for encryption.")
        }
        let base: Data
        let activationID: String?
        switch scope {
        case .application:
            base = EciesContext.applicationScopeSharedInfo2Base(applicationSecret: configuration.applicationSecret)
            activationID = nil
        case let .activation(id, transportKey):
            base = EciesContext.activationScopeSharedInfo2Base(applicationSecret: configuration.applicationSecret, transportKey: transportKey)
            activationID = id
        }
        let associated = EciesContext.associatedData(
            version: .v33, applicationKey: configuration.applicationKey, activationID: activationID, temporaryKeyID: key.id)
        context = EciesContext(version: .v33, envelopeKey: envelopeKey, sharedInfo2Base: base, associatedData: associated)
        temporaryKeyID = key.id
    }

    /// Seals a request body.
    func seal(_ plaintext: Data, timestamp: UInt64) throws(ActivationError) -> EciesEnvelope {
        do {
            let payload = try context.encrypt(plaintext, direction: .request, nonce: Randomness.bytes(16), timestamp: timestamp)
            return EciesEnvelope(payload, temporaryKeyID: temporaryKeyID)
        } catch {
            throw .invalidConfiguration("The request cannot be encrypted: \(error).")
        }
    }

    /// Opens the response's envelope.
    func open(_ envelope: EciesEnvelope) throws(ActivationError) -> Data {
        guard let payload = envelope.payload else { throw .invalidResponse("The encrypted answer lacks its ciphertext or MAC, or a value is not Base64.") }
        do {
            return try context.decrypt(payload, direction: .response)
        } catch {
            throw .invalidResponse("The encrypted answer does not decrypt (\(error)).")
        }
    }
}

/// Secure random bytes.
enum Randomness {
    static func bytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
