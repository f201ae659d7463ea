import Foundation
import KeywayPowerAuthClient

/// A device activated against a ``ProtocolPeer``.
struct Fixture {
    let peer: ProtocolPeer
    let storage: RecordingStorage
    let biometry: SoftwareBiometry
    let activation: DeviceActivation

    init(appIdentifier: String = "com.example.app", biometry: SoftwareBiometry = SoftwareBiometry()) throws {
        peer = ProtocolPeer()
        storage = RecordingStorage()
        self.biometry = biometry
        activation = DeviceActivation(
            configuration: try peer.configuration(), appIdentifier: appIdentifier, storage: storage,
            options: DeviceActivationOptions(transport: peer, biometry: biometry, deviceInfo: "TestDevice1,1"))
    }

    /// Creates and commits an activation with an activation code; returns its ID.
    @discardableResult
    func activate(password: String = "1234", biometry: Bool = false) async throws -> String {
        let code = ActivationCode.random()
        await peer.addCode(code)
        let pending = try await activation.create(with: .typedCode(code.value), name: "Test device")
        try await activation.commit(password: password, biometry: biometry)
        return pending.activationID
    }
}
