/// Where `GET /metrics` is served and who may read it. By default nowhere a stranger reaches: the
/// public listener does not serve it. An operator gives the scraper a listener of its own (as
/// Keycloak's management port) or lets the public listener serve it to a token; either way the
/// scraper's credential reads the metrics and nothing else.
public struct MetricsExposure: Sendable, Equatable {
    /// A listener of its own: `GET /metrics` only, on an address the scraper reaches (a private
    /// interface, or loopback for a sidecar).
    public struct Listener: Sendable, Equatable {
        public var host: String
        /// `0` picks a free port (logged as `metrics listening on …`).
        public var port: Int

        /// A listener on `host` and `port`.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// The bearer token that reads `/metrics` and nothing else (at least 32 characters). It is
    /// kept in memory, not in the database, so scraping goes on while the database is away. On
    /// the metrics listener, without it anyone who reaches the listener reads the metrics.
    public var token: String?
    /// The metrics listener; `nil`: none.
    public var listener: Listener?
    /// Whether the public listener serves `/metrics` too, to the metrics token or the admin token.
    public var onPublicListener: Bool

    /// The shortest metrics token accepted.
    public static let minimumTokenLength = 32

    /// An exposure with the given values; the default serves the metrics nowhere.
    public init(token: String? = nil, listener: Listener? = nil, onPublicListener: Bool = false) {
        self.token = token
        self.listener = listener
        self.onPublicListener = onPublicListener
    }

    /// Why the exposure cannot be used, or `nil`.
    public var problem: String? {
        if let token, token.count < Self.minimumTokenLength {
            return "The metrics token must be at least \(Self.minimumTokenLength) characters."
        }
        if let listener, !(0...65_535).contains(listener.port) {
            return "The metrics listener's port must be between 0 and 65535."
        }
        return nil
    }
}
