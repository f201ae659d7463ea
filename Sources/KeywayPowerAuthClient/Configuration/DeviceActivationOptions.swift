import Foundation

/// The seams and device details of a ``DeviceActivation``.
public struct DeviceActivationOptions: Sendable {
    /// The HTTP seam (default: ``URLSessionTransport``).
    public var transport: any HTTPTransport
    /// Where the biometry factor's key is kept behind the user's biometry; `nil` for none.
    public var biometry: (any Biometry)?
    /// The time seam (ECIES timestamps, temporary key expiry).
    public var clock: any KeywayClock
    /// The platform sent at activation (`ios`, `android`, `hw` or `unknown`).
    public var platform: String
    /// The device model sent at activation (for example `iPhone15,2`), shown in the user's list.
    public var deviceInfo: String?
    /// The PBKDF2 iteration count of the password key (at least 10 000).
    public var passwordIterations: Int
    /// Headers added to every request of the activation (the same ``RequestInterceptor`` the
    /// flows use); they cannot set `Authorization`, `Content-Type`, `Accept` or any
    /// `X-PowerAuth-…` header.
    public var requestInterceptors: [RequestInterceptor]

    /// Builds options.
    ///
    /// - Parameters:
    ///   - transport: The HTTP seam.
    ///   - biometry: The biometry seam, or `nil`.
    ///   - clock: The time seam.
    ///   - platform: The platform name sent at activation; by default the one this SDK runs on.
    ///   - deviceInfo: The device model, or `nil`.
    ///   - passwordIterations: The PBKDF2 iteration count (values below 10 000 are raised to it).
    ///   - requestInterceptors: Headers added to every request, in order.
    public init(
        transport: any HTTPTransport = URLSessionTransport(), biometry: (any Biometry)? = nil,
        clock: any KeywayClock = SystemKeywayClock(), platform: String = DeviceActivationOptions.currentPlatform,
        deviceInfo: String? = nil, passwordIterations: Int = 10_000, requestInterceptors: [RequestInterceptor] = []
    ) {
        self.requestInterceptors = requestInterceptors
        self.transport = transport
        self.biometry = biometry
        self.clock = clock
        self.platform = platform
        self.deviceInfo = deviceInfo
        self.passwordIterations = max(passwordIterations, 10_000)
    }

    /// The platform this SDK runs on, among the names the protocol lists (`ios`, `android`, `hw`,
    /// `unknown`): `ios` on iOS, `unknown` elsewhere (``deviceInfo`` says more).
    public static var currentPlatform: String {
        #if os(iOS)
            "ios"
        #else
            "unknown"
        #endif
    }
}
