import Foundation
import KeywayProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Keyway SDK's entry point: starts flows against a Keyway server and redeems their result.
/// (Named apart from the `Keyway` module, so `Keyway.SomeType` always means the module's type.)
///
/// ```swift
/// let keyway = try KeywayClient(configID: "cfg_…", baseURL: URL(string: "https://auth.example.com")!)
/// keyway.flow.onUpdate = { update in … }
/// await keyway.flow.start(flowType: .signin, identifier: "alice@example.com")
/// await keyway.flow.submitCode("123456")
/// ```
public final class KeywayClient: Sendable {
    /// The SDK version.
    public static let version = "0.1.0"

    /// The application's config ID (its OAuth `client_id`).
    public let configID: String

    /// The normalized server URL.
    package let server: ServerURL
    /// The options the SDK was created with.
    public let options: KeywayOptions
    /// The flow: observe it and answer its prompts.
    public let flow: KeywayFlow
    /// The signed-in accounts, kept in ``KeywayOptions/storage``: a completed sign-in is saved
    /// here (``KeywayOptions/completedSignIns``), and the account's calls (profile, devices,
    /// signing out, managing the account) bring its access token.
    public let session: KeywaySession
    /// The stateless token calls (code redemption, token exchange, refresh, revocation), for
    /// apps that keep tokens themselves or redeem a code a backend handed over.
    public let tokens: KeywayTokens

    let tokenClient: TokenClient
    let eventBroadcaster: EventBroadcaster
    let logger: KeywayLogger

    /// A new stream of the SDK's events from now on (sign-in started, completed or failed, tokens
    /// refreshed, signed out, session expired, profile saved). Each access makes a new stream.
    public var events: AsyncStream<KeywayEvent> { eventBroadcaster.stream() }

    /// Receives every event too, synchronously; held weakly (the package's tests).
    package var eventDelegate: (any KeywayEventDelegate)? {
        get { eventBroadcaster.delegate }
        set { eventBroadcaster.delegate = newValue }
    }

    /// Creates the SDK.
    ///
    /// - Parameters:
    ///   - configID: The application's config ID (its OAuth `client_id`); spaces around it are
    ///     trimmed.
    ///   - baseURL: The server root or its `/v1` URL, with or without a trailing slash.
    ///   - options: The SDK's options.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a config ID that is empty, longer than
    ///   128 bytes or holds whitespace, a ``KeywayOptions/relyingParty`` that is empty or holds a
    ///   line break, or an unusable URL (see `ServerURL.init(_:)`).
    public init(configID: String, baseURL: URL, options: KeywayOptions = KeywayOptions()) throws {
        let configId = configID.trimmingCharacters(in: .whitespaces)
        guard !configId.isEmpty, configId.utf8.count <= 128,
            !configId.contains(where: { $0.isNewline || $0.isWhitespace })
        else { throw KeywayError.invalidConfiguration("The config ID is empty or malformed.") }
        if let relyingParty = options.relyingParty,
            relyingParty.isEmpty || relyingParty.contains(where: \.isNewline)
        {
            throw KeywayError.invalidConfiguration("The relying party must be a non-empty single line.")
        }
        self.configID = configId
        self.server = try ServerURL(baseURL)
        self.options = options
        let logger = KeywayLogger(configuration: options.logging, clock: options.clock)
        self.logger = logger
        // The clients send through the interceptors and the logging, then the app's transport.
        var instrumented = options
        instrumented.transport = InstrumentedTransport(
            inner: options.transport, interceptors: options.requestInterceptors, logger: logger)
        let client = ProtocolClient(server: server, configId: configId, options: instrumented)
        let events = EventBroadcaster(clock: options.clock)
        self.eventBroadcaster = events
        let serverURL = server
        let appAttest = options.appAttest.map {
            AppAttestAgent(
                options: $0, server: serverURL, configId: configId, transport: instrumented.transport,
                clock: options.clock, logger: logger)
        }
        self.flow = KeywayFlow(
            driver: FlowDriver(client: client, options: instrumented, events: events, logger: logger, appAttest: appAttest))
        let tokenClient = TokenClient(server: server, configId: configId, options: instrumented, appAttest: appAttest)
        self.tokenClient = tokenClient
        self.tokens = KeywayTokens(client: tokenClient, flowDriver: flow.driver)
        let session = KeywaySession(
            client: SessionClient(
                configID: configId, server: server, options: options, tokenClient: tokenClient, eventBroadcaster: events,
                logger: logger, flow: flow),
            storage: options.storage)
        self.session = session
        if options.completedSignIns == .saveToSession {
            // The flow's driver holds the saver: it holds the session weakly and not the driver,
            // or the client and its session would never be freed.
            flow.driver.completionSaver.withLock {
                $0 = { [weak session] completion in
                    guard let session else { throw KeywayError.invalidConfiguration("The client is gone.") }
                    let set = try await KeywayTokens.exchange(completion, at: tokenClient)
                    try await session.save(set)
                    return set
                }
            }
        }
        events.owner = self
    }

    /// The request with `accessToken`'s `Authorization` (and `DPoP`) headers: what
    /// ``KeywaySession/authorizedRequest(_:dpopNonce:account:)`` adds, for a given token (the
    /// PowerAuth activation of a signed-in user sends its own).
    package func authorizedRequest(
        _ request: URLRequest, accessToken: Sensitive<String>, dpopNonce: String? = nil
    ) async throws -> URLRequest {
        try await Self.authorizedRequest(request, accessToken: accessToken, dpopNonce: dpopNonce, tokenClient: tokenClient)
    }

    static func authorizedRequest(
        _ request: URLRequest, accessToken: Sensitive<String>, dpopNonce: String?, tokenClient: TokenClient
    ) async throws -> URLRequest {
        guard let url = request.url, url.scheme != nil, url.host != nil else {
            throw KeywayError.invalidConfiguration("The request has no absolute URL.")
        }
        if let dpopNonce, dpopNonce.isEmpty || !dpopNonce.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw KeywayError.invalidConfiguration("The DPoP nonce is malformed.")
        }
        let headers = try await tokenClient.authorizationHeaders(
            method: request.httpMethod ?? "GET", url: url, accessToken: accessToken, nonce: dpopNonce)
        var authorized = request
        for (name, value) in headers { authorized.setValue(value, forHTTPHeaderField: name) }
        return authorized
    }
}
