import KeywayJOSE
import KeywayProtocol

/// The members of flow progress format 1 that format 2 keeps elsewhere: the client's device hint
/// and `User-Agent` (now ``FlowProgress/client``), and what three methods kept across stages (now
/// their entries of ``FlowProgress/methodState``). Only read, to convert flows in flight
/// (``upgrade(_:)``); every member is optional.
struct FlowProgressV1: Decodable, Sendable {
    /// Format 1's `device`: what the client said and what happened to its trusted device.
    struct Device: Decodable, Sendable {
        var hint: DeviceHint?
        var userAgent: String?
        var checked: Bool?
        var enrolOffered: Bool?
        var pending: TrustedDeviceRecord?

        private enum CodingKeys: String, CodingKey { case hint, userAgent, checked, enrolOffered, pending }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            hint = try container.decodeIfPresent(DeviceHint.self, forKey: .hint)
            userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
            checked = try container.decodeIfPresent(Bool.self, forKey: .checked)
            enrolOffered = try container.decodeIfPresent(Bool.self, forKey: .enrolOffered)
            // A device waiting to be written that cannot be read is dropped, as format 1 did.
            pending = (try? container.decodeIfPresent(TrustedDeviceRecord.self, forKey: .pending)) ?? nil
        }
    }

    struct SignIn: Decodable, Sendable {
        /// A password reset's code proved the identifier: the new password is due.
        var resetsPassword: Bool?
    }

    struct Management: Decodable, Sendable {
        /// The linked identity a waiting `unlinkIdentity` removes, kept beside its input.
        var pendingIdentityId: String?
    }

    var device: Device?
    /// The upstream identity waiting to be linked.
    var federation: PendingFederation?
    var signIn: SignIn?
    var manage: Management?

    /// Moves these members to where format 2 keeps them in `progress`.
    func upgrade(_ progress: inout FlowProgress) {
        if let device {
            progress.client = FlowProgress.ClientDescription(deviceHint: device.hint, userAgent: device.userAgent)
            progress.trustedDevice = TrustedDeviceProgress(
                checked: device.checked ?? false, enrolOffered: device.enrolOffered ?? false, pending: device.pending)
        }
        if let federation { progress.pendingFederation = federation }
        if signIn?.resetsPassword == true { progress.resetsPassword = true }
        if let identityId = manage?.pendingIdentityId, var management = progress.management {
            // The operation's input is read from what waits; the identity joins it.
            var members: [String: JSONValue] = [:]
            if case .object(let kept) = management.pendingInput { members = kept }
            if members["identityId"] == nil { members["identityId"] = .string(identityId) }
            management.pendingInput = .object(members)
            progress.management = management
        }
    }
}
