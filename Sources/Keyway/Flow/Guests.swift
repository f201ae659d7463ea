import Foundation
import KeywayProtocol

extension KeywayClient {
    /// Signs in as a guest: `POST /v1/guests` makes a new user without an identifier (where the
    /// application's policy allows guests) and answers its tokens, verified here as a code
    /// redemption's are. The ID token and the access token carry `"is_anonymous": true`
    /// (``IDTokenClaims/isAnonymous``). Save them with ``KeywaySession/save(_:)``, or call
    /// ``KeywaySession/signInAsGuest()``, which does both.
    ///
    /// A guest can have a profile and devices like any user; a sign-up started with its access
    /// token (``startGuestUpgrade(accessToken:identifier:inviteCode:options:)``) makes it a full
    /// account with the same user ID.
    ///
    /// - Returns: The guest's verified tokens.
    /// - Throws: ``KeywayError/problem(_:)`` with `guests_disabled` (the application does not
    ///   allow guests) or `rate_limited` (too many guests from this network: wait), or
    ///   `networkFailure`, `invalidResponse`, `invalidIDToken`.
    public func signInAsGuest() async throws -> TokenSet {
        try await tokenClient.signInAsGuest()
    }

    /// Starts the sign-up that upgrades a guest (a `signup` flow whose `POST /v1/flows` carries
    /// the guest's access token in `Authorization`), replacing any flow in progress. The flow runs
    /// as any sign-up — the identifier proved with a code, the form, a password or second factor
    /// where the policy asks — and the account it completes with is the guest's: the same user ID,
    /// with the guest's profile and devices. When the proved identifier already belongs to an
    /// account, the flow answers ``Prompt/accountExists(identifierHint:)``: sign in to that account
    /// (``KeywayFlow/signInInstead()``) or stay a guest (``KeywayFlow/stayGuest()``).
    ///
    /// - Parameters:
    ///   - accessToken: The guest's access token.
    ///   - identifier: The email address or phone number of the new account.
    ///   - inviteCode: An invitation code, where sign-up needs one.
    ///   - options: The flow's OpenID Connect parameters.
    public func startGuestUpgrade(
        accessToken: Sensitive<String>, identifier: String, inviteCode: String? = nil,
        options: FlowStartOptions = FlowStartOptions()
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
            flowType: .signup, identifier: identifier, startToken: nil, inviteCode: inviteCode, codeChallenge: nil,
            options: options, authorization: authorization)
    }

    /// Starts the sign-up that upgrades the guest of `session` (its current account by default),
    /// with a valid access token of it: see ``startGuestUpgrade(accessToken:identifier:inviteCode:options:)``.
    ///
    /// - Parameters:
    ///   - session: The session holding the guest.
    ///   - account: The guest's account; `nil` for the current one.
    ///   - identifier: The email address or phone number of the new account.
    ///   - inviteCode: An invitation code, where sign-up needs one.
    /// - Throws: The ``SessionError`` of reading the token (``SessionError/noAccessTokenPresent``
    ///   when nobody is signed in); every later failure arrives on ``flow``.
    public func startGuestUpgrade(
        session: KeywaySession, account: String? = nil, identifier: String, inviteCode: String? = nil
    ) async throws(SessionError) {
        guard let accessToken = try await session.accessToken(account: account) else { throw .noAccessTokenPresent }
        await startGuestUpgrade(accessToken: accessToken, identifier: identifier, inviteCode: inviteCode)
    }
}
