import Foundation
import KeywayProtocol

/// What keeps an account reachable: a change that takes a way in away (removing a passkey,
/// unlinking a provider) is refused when it is the last one.
extension FlowEngine {
    /// Whether `user` can still sign in under the policy without the credential `credentialId` of
    /// `owner`: each of the policy's primary methods, then each family, says whether it opens
    /// the account (``WayInMethod``).
    func hasAnotherWayIn(_ user: UserRecord, without credentialId: String, of owner: FlowMethodID, _ context: Context) -> Bool {
        let ways =
            context.policy.primaryMethods.compactMap { methods.module($0, as: (any WayInMethod).self) }
            + methods.families.compactMap { $0 as? any WayInMethod }
        return ways.contains { $0.opensAccount(of: user, without: $0.id == owner ? credentialId : nil, context) }
    }
}
