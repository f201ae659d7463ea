import Foundation
import KeywayProtocol

/// The flows a signed-in user's access token starts, for a given token. Apps call the
/// session's ``KeywaySession/manageAccount(account:codeChallenge:)`` and
/// ``KeywaySession/upgradeGuest(identifier:inviteCode:options:account:)``, which bring the
/// session's token; these forms exist for the tests that send a chosen (refused, foreign,
/// narrowed) token.
extension KeywayClient {
    /// Starts account management for the user `accessToken` belongs to.
    func startAccountManagement(
        accessToken: Sensitive<String>, identifier: String, codeChallenge: String? = nil
    ) async {
        await SessionClient(self).startAuthorizedFlow(
            .accountManage, accessToken: accessToken, identifier: identifier, codeChallenge: codeChallenge)
    }

    /// Starts the sign-up that upgrades the guest `accessToken` belongs to.
    func startGuestUpgrade(
        accessToken: Sensitive<String>, identifier: String, inviteCode: String? = nil,
        options: FlowStartOptions = FlowStartOptions()
    ) async {
        await SessionClient(self).startAuthorizedFlow(
            .signup, accessToken: accessToken, identifier: identifier, inviteCode: inviteCode, options: options)
    }

    /// A new guest's verified tokens, unsaved (``KeywaySession/signInAsGuest()`` saves them).
    func signInAsGuest() async throws -> TokenSet {
        try await tokenClient.signInAsGuest()
    }
}
