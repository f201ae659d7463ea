import Foundation
import KeywayProtocol

/// What keeps an account reachable: a change that takes a way in away (removing a passkey,
/// unlinking a provider) is refused when it is the last one.
extension FlowEngine {
    /// Whether the user can still sign in under the policy without the identity `identityId`
    /// or the passkey `passkeyId`.
    static func hasAnotherWayIn(
        _ user: UserRecord, withoutIdentity identityId: String? = nil, withoutPasskey passkeyId: String? = nil,
        _ context: Context
    ) -> Bool {
        let primary = context.policy.primaryMethods
        if primary.contains(.emailOtp) || primary.contains(.signInLink), user.email != nil, user.emailVerified { return true }
        if primary.contains(.smsOtp), user.verifiedPhone != nil { return true }
        if primary.contains(.password), user.passwordHash != nil { return true }
        if primary.contains(.totp), user.hasTotp { return true }
        if primary.contains(.passkey), context.passkeys.contains(where: { $0.id != passkeyId }) { return true }
        let enabled = Set(context.policy.federationProviders)
        return context.linkedIdentities.contains {
            $0.id != identityId && $0.heldSince == nil && enabled.contains($0.providerId)
        }
    }
}
