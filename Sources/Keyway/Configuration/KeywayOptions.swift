import Crypto
import Foundation

/// How the SDK chooses the primary sign-in method when the server offers a choice.
public enum PrimaryMethodSelectionPolicy: Sendable, Equatable {
    /// Always show the method choice to the user.
    case manual
    /// During sign-in, pick the method the identifier makes obvious (an email address → email
    /// code, a phone number → SMS code) without showing the choice.
    case automaticFromIdentifier
}

/// Options of a ``Keyway`` instance. Every seam (transport, clock, randomness) is injectable.
public struct KeywayOptions: Sendable {
    /// Sent as `X-Keyway-Relying-Party` when the app's backend expects it.
    public var relyingParty: String?
    /// How the primary method is chosen when the server offers several.
    public var primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy
    /// The HTTP transport; URLSession by default.
    public var transport: any HTTPTransport
    /// The clock.
    public var clock: any KeywayClock
    /// The randomness source.
    public var random: any KeywayRandom
    /// A P-256 key to bind tokens to with DPoP (RFC 9449), or `nil` for bearer tokens. With a key,
    /// every token request carries a DPoP proof (a server nonce is fetched and used when the
    /// server asks for one), and calls with a bound access token send it as `Authorization: DPoP`
    /// with a proof. Keep the key as long as the tokens: a bound refresh token only works with it.
    public var dpopKey: (any DeviceKey)?
    /// Opt-in flow resumption: when set, an unfinished flow's ID, flow token and PKCE verifier are
    /// kept in this storage from its first step until it completes, is cancelled, fails for good
    /// or expires, so ``KeywayFlow/resume()`` can pick it up in a later process (after the app
    /// was killed on the code screen, for example). `nil` (the default) keeps nothing.
    public var resumableFlowStorage: (any SecureStorage)?
    /// The SDK's logging: levels, areas, sinks and masking. Nothing is logged by default.
    public var logging: KeywayLogging
    /// Headers added to every request the SDK sends, in order.
    public var requestInterceptors: [RequestInterceptor]
    /// Trusted devices: `nil` (the default) never enrols nor proves this device.
    public var deviceTrust: DeviceTrustOptions?
    /// Whether an ``Prompt/awaitApproval(matchingNumber:qrData:expiresAt:)`` prompt is polled by
    /// the SDK at the server's `pollInterval` (the default) until it is approved, denied, expired,
    /// cancelled or reset. With `false` the app calls ``KeywayFlow/pollApproval()`` itself. The
    /// same holds for an `enterCode` prompt whose message carried a sign-in link (`linkSent`):
    /// polled until the link is approved or denied on another device.
    public var autoPollApprovals: Bool
    /// App Attest: `nil` (the default) never proves that requests come from a genuine app
    /// instance; an application whose policy requires it then refuses device enrolment or
    /// DPoP-bound tokens.
    public var appAttest: AppAttestOptions?
    /// Where ``KeywayClient/session`` keeps the signed-in accounts: the Keychain
    /// (``KeychainSecureStorage``) by default on Apple platforms, memory elsewhere (use a
    /// ``FileSecureStorage`` to keep a session across launches on Linux).
    public var storage: any SecureStorage
    /// What happens to a completed sign-in: saved in ``KeywayClient/session`` (the default) or
    /// handed over to the app.
    public var completedSignIns: CompletedSignIns

    /// The default ``storage``: the Keychain on Apple platforms, memory elsewhere.
    public static var defaultStorage: any SecureStorage {
        #if canImport(Security)
            KeychainSecureStorage()
        #else
            InMemorySecureStorage()
        #endif
    }

    /// Options; every one not given takes its default.
    ///
    /// - Parameters:
    ///   - storage: Where the session keeps the signed-in accounts; ``defaultStorage`` when `nil`.
    ///   - completedSignIns: Whether a completed sign-in is saved in the session (the default) or
    ///     handed over.
    ///   - relyingParty: Sent as `X-Keyway-Relying-Party`; `nil` sends nothing.
    ///   - primaryMethodSelectionPolicy: How the primary method is chosen;
    ///     ``PrimaryMethodSelectionPolicy/manual`` by default.
    ///   - transport: The HTTP transport; a ``URLSessionTransport`` by default.
    ///   - clock: The clock; the system clock by default.
    ///   - random: The randomness source; the system's secure generator by default.
    ///   - dpopKey: A key to bind tokens to with DPoP; `nil` for bearer tokens.
    ///   - resumableFlowStorage: Where an unfinished flow is kept for ``KeywayFlow/resume()``; `nil`
    ///     keeps nothing.
    ///   - logging: The SDK's logging; nothing is logged by default.
    ///   - requestInterceptors: Headers added to every request, in order.
    ///   - deviceTrust: Trusted devices; `nil` never enrols nor proves this device.
    ///   - autoPollApprovals: Whether the SDK polls an approval prompt itself.
    ///   - appAttest: App Attest; `nil` never attests.
    public init(
        storage: (any SecureStorage)? = nil, completedSignIns: CompletedSignIns = .saveToSession,
        relyingParty: String? = nil, primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy = .manual,
        transport: any HTTPTransport = URLSessionTransport(), clock: any KeywayClock = SystemKeywayClock(),
        random: any KeywayRandom = SystemKeywayRandom(), dpopKey: (any DeviceKey)? = nil,
        resumableFlowStorage: (any SecureStorage)? = nil, logging: KeywayLogging = KeywayLogging(),
        requestInterceptors: [RequestInterceptor] = [], deviceTrust: DeviceTrustOptions? = nil,
        autoPollApprovals: Bool = true, appAttest: AppAttestOptions? = nil
    ) {
        self.storage = storage ?? Self.defaultStorage
        self.completedSignIns = completedSignIns
        self.appAttest = appAttest
        self.deviceTrust = deviceTrust
        self.autoPollApprovals = autoPollApprovals
        self.resumableFlowStorage = resumableFlowStorage
        self.logging = logging
        self.requestInterceptors = requestInterceptors
        self.relyingParty = relyingParty
        self.primaryMethodSelectionPolicy = primaryMethodSelectionPolicy
        self.transport = transport
        self.clock = clock
        self.random = random
        self.dpopKey = dpopKey
    }
}
