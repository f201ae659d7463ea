/// What the SDK does with a flow that completes with a code it holds the PKCE verifier of.
public enum CompletedSignIns: Sendable, Equatable {
    /// Redeem the code and save the tokens in ``KeywayClient/session`` before the flow reports
    /// ``FlowUpdate/completed(session:authCode:expiresAt:codeVerifier:meta:)``: the user is
    /// signed in when the app hears of it. A redemption or a save that fails reports an error
    /// update instead (`sign_in_not_saved`, with the reason). The default.
    case saveToSession
    /// Hand the code over untouched: the app redeems it itself (``KeywayClient/tokens``) or, for
    /// a confidential application, sends it with its verifier to its backend.
    case handOver
}
