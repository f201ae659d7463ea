/// How an application's tokens are bound to a client key with DPoP (RFC 9449).
public struct DPoPPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable {
        /// DPoP proofs are ignored; tokens are bearer tokens.
        case off
        /// A token request with a proof gets bound tokens; without one, bearer tokens.
        case optional
        /// Every token request needs a proof; every token is bound.
        case required
    }

    public var mode: Mode
    /// Whether proofs at the token endpoint must carry a server-issued nonce (`use_dpop_nonce`).
    public var requireNonce: Bool

    public init(mode: Mode = .optional, requireNonce: Bool = false) {
        self.mode = mode
        self.requireNonce = requireNonce
    }
}
