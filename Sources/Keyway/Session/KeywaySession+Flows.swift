import Foundation
import KeywayProtocol

/// The flows a signed-in account starts: managing the account, and upgrading a guest. Both run on
/// the client's ``KeywayClient/flow``, replacing any flow in progress; the session brings the
/// account's access token (refreshed first when it is about to expire), which travels in the
/// `Authorization` header of `POST /v1/flows` only (`Bearer`, or `DPoP` with a proof when it is
/// DPoP-bound). Later requests of the flow use its flow token.
extension KeywaySession {
    /// Starts an account-management flow (`flowType` `accountManage`) for an account, with its
    /// email address (or user ID) as the identifier. The flow's first step is usually a
    /// ``Prompt/manageAccount(methods:operations:)`` prompt, possibly after a step that proves who
    /// the user is again. A token the server refuses arrives on the flow as the server's problem.
    ///
    /// - Parameters:
    ///   - account: The account to manage; `nil` for the current one.
    ///   - codeChallenge: An S256 PKCE challenge made elsewhere; without it the SDK makes one and
    ///     the completion carries the verifier.
    /// - Throws: The ``SessionError`` of reading the token (``SessionError/noAccessTokenPresent``
    ///   when nobody is signed in); every later failure arrives on ``KeywayClient/flow``.
    public func manageAccount(account: String? = nil, codeChallenge: String? = nil) async throws(SessionError) {
        guard let tokens = try await entry(account: account),
            let accessToken = try await accessToken(account: account)
        else { throw .noAccessTokenPresent }
        await keyway.startAuthorizedFlow(
            .accountManage, accessToken: accessToken, identifier: tokens.email ?? tokens.subject,
            codeChallenge: codeChallenge)
    }

    /// Starts the sign-up that upgrades a guest (a `signup` flow authorized by the guest's access
    /// token). The flow runs as any sign-up — the identifier proved with a code, the form, a
    /// password or second factor where the policy asks — and the account it completes with is the
    /// guest's: the same user ID, with the guest's profile and devices. When the proved identifier
    /// already belongs to an account, the flow answers ``Prompt/accountExists(identifierHint:)``:
    /// sign in to that account (``KeywayFlow/signInInstead()``) or stay a guest
    /// (``KeywayFlow/stayGuest()``).
    ///
    /// - Parameters:
    ///   - identifier: The email address or phone number of the new account.
    ///   - inviteCode: An invitation code, where sign-up needs one.
    ///   - options: The flow's OpenID Connect parameters.
    ///   - account: The guest's account; `nil` for the current one.
    /// - Throws: The ``SessionError`` of reading the token (``SessionError/noAccessTokenPresent``
    ///   when nobody is signed in); every later failure arrives on ``KeywayClient/flow``.
    public func upgradeGuest(
        identifier: String, inviteCode: String? = nil, options: FlowStartOptions = FlowStartOptions(),
        account: String? = nil
    ) async throws(SessionError) {
        guard let accessToken = try await accessToken(account: account) else { throw .noAccessTokenPresent }
        await keyway.startAuthorizedFlow(
            .signup, accessToken: accessToken, identifier: identifier, inviteCode: inviteCode, options: options)
    }
}
