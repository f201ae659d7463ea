import Foundation
import KeywayProtocol

extension KeywayClient {
    /// Starts an account-management flow (`flowType` `accountManage`) for the user an access
    /// token belongs to, replacing any flow in progress. The token travels in the `Authorization`
    /// header of `POST /v1/flows` only: `Bearer`, or `DPoP` with a proof when it is DPoP-bound
    /// (which needs ``KeywayOptions/dpopKey``). Later requests of the flow use its flow token.
    ///
    /// `identifier` is the user's identifier as the server knows it (an email address, or the
    /// user ID). The flow's first step is usually a
    /// ``Prompt/manageAccount(methods:operations:)`` prompt, possibly after a step that proves who
    /// the user is again. A token that cannot be sent (empty, malformed, DPoP-bound without a
    /// key) is reported on ``flow`` as an `invalid_access_token` error with `abort`, before any
    /// request; a token the server refuses arrives as the server's problem.
    ///
    /// - Parameters:
    ///   - accessToken: A valid access token of the user.
    ///   - identifier: The user's identifier as the server knows it.
    ///   - codeChallenge: An S256 PKCE challenge made elsewhere; without it the SDK makes one and
    ///     the completion carries the verifier.
    public func startAccountManagement(
        accessToken: Sensitive<String>, identifier: String, codeChallenge: String? = nil
    ) async {
        let authorization: Result<[String: String], KeywayError>
        do {
            authorization = .success(
                try await tokenClient.authorizationHeaders(
                    method: "POST", url: server.appending(path: "/v1/flows"), accessToken: accessToken, nonce: nil))
        } catch let error as KeywayError {
            authorization = .failure(error)
        } catch {
            authorization = .failure(.invalidConfiguration(String(describing: error)))
        }
        await flow.driver.start(
            flowType: .accountManage, identifier: identifier, startToken: nil, inviteCode: nil,
            codeChallenge: codeChallenge, authorization: authorization)
    }

    /// Starts an account-management flow for an account of `session` (default: the current one)
    /// with a valid access token of it (refreshed first when it is about to expire) and its
    /// email address (or user ID) as the identifier. See
    /// ``startAccountManagement(accessToken:identifier:codeChallenge:)``.
    ///
    /// - Parameters:
    ///   - session: The session holding the signed-in accounts.
    ///   - account: The account to manage; `nil` for the current one.
    /// - Throws: The ``SessionError`` of reading the token (``SessionError/noAccessTokenPresent``
    ///   when nobody is signed in); every later failure arrives on ``flow``.
    public func startAccountManagement(session: KeywaySession, account: String? = nil) async throws(SessionError) {
        guard let tokens = try await session.tokens(account: account),
            let accessToken = try await session.accessToken(account: account)
        else { throw .noAccessTokenPresent }
        await startAccountManagement(accessToken: accessToken, identifier: tokens.email ?? tokens.subject)
    }
}
