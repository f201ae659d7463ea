import Foundation

/// Everything `keyway-server` needs to start.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on; `0` picks a free port.
    public var port: Int
    /// Where the data lives.
    public var database: DatabaseLocation
    /// The OAuth issuer URL; `nil` uses the listening URL (`http://HOST:PORT`).
    public var issuer: String?
    /// Dev mode: a dev project and application are provisioned, and messages go to the dev outbox.
    public var devMode: Bool
    /// Pins the config ID of the dev application.
    public var devConfigId: String?
    /// Outside dev mode: the executable that delivers each message (JSON on standard input).
    public var deliveryCommand: String?
    /// The time source.
    public var clock: any ServerClock
    /// Lifetimes and limits of flows and codes.
    public var limits: FlowLimits
    /// Lifetimes of issued tokens.
    public var tokenLifetimes: TokenLifetimes

    public init(
        host: String = "127.0.0.1", port: Int = 8080, database: DatabaseLocation = .embeddedDefault,
        issuer: String? = nil, devMode: Bool = true, devConfigId: String? = nil, deliveryCommand: String? = nil,
        clock: any ServerClock = SystemClock(), limits: FlowLimits = FlowLimits(),
        tokenLifetimes: TokenLifetimes = TokenLifetimes()
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.issuer = issuer
        self.devMode = devMode
        self.devConfigId = devConfigId
        self.deliveryCommand = deliveryCommand
        self.clock = clock
        self.limits = limits
        self.tokenLifetimes = tokenLifetimes
    }
}

/// Lifetimes and limits of flows and one-time codes.
public struct FlowLimits: Sendable {
    /// How long a flow lives from its start.
    public var flowLifetime: TimeInterval = 15 * 60
    /// How long a one-time code stays valid.
    public var codeLifetime: TimeInterval = 10 * 60
    /// Digits in a one-time code.
    public var codeLength: Int = 6
    /// Wrong codes accepted before the flow closes.
    public var maxCodeAttempts: Int = 5
    /// Minimum time between two codes of one flow.
    public var resendCooldown: TimeInterval = 30
    /// New codes one flow may request.
    public var maxResends: Int = 5
    /// How long an authorization code can be redeemed.
    public var authorizationCodeLifetime: TimeInterval = 60

    public init() {}
}

/// Lifetimes of issued tokens.
public struct TokenLifetimes: Sendable {
    /// Access token lifetime.
    public var accessToken: TimeInterval = 15 * 60
    /// ID token lifetime.
    public var idToken: TimeInterval = 60 * 60
    /// The refresh token policy of applications that do not set their own.
    public var refreshTokens = RefreshTokenPolicy()

    public init() {}
}
