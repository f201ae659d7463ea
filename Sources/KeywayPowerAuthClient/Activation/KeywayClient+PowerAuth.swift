import Foundation
import Keyway

extension KeywayClient {
    /// This app's PowerAuth activation for an application, reached from the client: kept in the
    /// client's ``KeywayOptions/storage``, sending through its transport with its clock and
    /// request interceptors.
    ///
    /// ```swift
    /// let activation = keyway.powerAuth(configuration, appIdentifier: "com.example.bank", biometry: SoftwareBiometry())
    /// let pending = try await activation.create(signedInWith: keyway)   // the session's sign-in
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The server and the application's PowerAuth credentials.
    ///   - appIdentifier: The app's identifier (a bundle ID), so that two apps sharing a storage
    ///     never share an activation.
    ///   - biometry: The biometry seam (``LocalAuthenticationBiometry`` on Apple platforms), or `nil`.
    ///   - deviceInfo: The device model, or `nil`.
    /// - Returns: The activation; make one per app and application, and keep it.
    public func powerAuth(
        _ configuration: PowerAuthConfiguration, appIdentifier: String, biometry: (any Biometry)? = nil,
        deviceInfo: String? = nil
    ) -> DeviceActivation {
        DeviceActivation(
            configuration: configuration, appIdentifier: appIdentifier, storage: options.storage,
            options: DeviceActivationOptions(
                transport: options.transport, biometry: biometry, clock: options.clock, deviceInfo: deviceInfo,
                requestInterceptors: options.requestInterceptors))
    }
}

extension DeviceActivation {
    /// Activates with the Keyway sign-in of `keyway`'s session (its current account): see
    /// ``create(signedInWith:keyway:name:)``.
    ///
    /// - Parameters:
    ///   - keyway: The client whose ``KeywayClient/session`` holds the sign-in.
    ///   - name: The activation's name, or `nil`.
    /// - Returns: The pending activation.
    /// - Throws: ``ActivationError/signInRequired(_:)`` when nobody is signed in, or the errors of
    ///   ``create(with:name:extras:)``.
    public func create(signedInWith keyway: KeywayClient, name: String? = nil) async throws(ActivationError)
        -> PendingActivation
    {
        try await create(signedInWith: keyway.session, keyway: keyway, name: name)
    }
}
