import Foundation

/// The exact bytes a device key signs (ES256, raw `r‖s`, base64url) for each proof a trusted
/// device gives. Every proof binds what it is for, the server's fresh challenge or the request it
/// answers, the flow, the application (config ID) and the server (`audience`, the issuer URL), so
/// a signature made for one of them is worthless for any other.
///
/// The canonical form is UTF-8 lines joined by `\n`: `keyway-device-v1`, the purpose, then the
/// purpose's values in a fixed order. No value may contain a line break.
public struct DeviceSigningInput: Sendable, Equatable {
    /// What a proof is for.
    public enum Purpose: String, Sendable {
        /// Enrolling a new trusted device in a flow: challenge, flow ID, config ID, audience, key thumbprint.
        case enrol
        /// Proving a trusted device in a flow: challenge, flow ID, config ID, audience, device ID.
        case challenge
        /// Deciding an approval request: approval ID, flow ID, config ID, audience, device ID, decision.
        case approval
        /// Reading a device's pending approval requests: device ID, config ID, audience, time (Unix seconds).
        case listApprovals
    }

    /// The first line of every input.
    public static let version = "keyway-device-v1"

    /// What the proof is for; the input's second line.
    public let purpose: Purpose
    /// The purpose's values, in the order ``Purpose`` lists them.
    public let values: [String]

    private init(purpose: Purpose, values: [String]) {
        self.purpose = purpose
        self.values = values
    }

    /// The input of a `deviceEnroll` step's signature.
    ///
    /// - Parameters:
    ///   - challenge: The step's challenge (``DeviceEnrollPayload/challenge``).
    ///   - flowID: The flow's ID.
    ///   - configID: The application's config ID.
    ///   - audience: The server's issuer URL (``DeviceEnrollPayload/audience``).
    ///   - keyThumbprint: The RFC 7638 thumbprint of the new device key's public JWK.
    /// - Returns: The input of purpose ``Purpose/enrol``.
    public static func enrolment(
        challenge: String, flowID: String, configID: String, audience: String, keyThumbprint: String
    ) -> DeviceSigningInput {
        DeviceSigningInput(purpose: .enrol, values: [challenge, flowID, configID, audience, keyThumbprint])
    }

    /// The input of a `deviceChallenge` step's signature.
    ///
    /// - Parameters:
    ///   - challenge: The step's challenge (``DeviceChallengePayload/challenge``).
    ///   - flowID: The flow's ID.
    ///   - configID: The application's config ID.
    ///   - audience: The server's issuer URL (``DeviceChallengePayload/audience``).
    ///   - deviceID: The trusted device being proven.
    /// - Returns: The input of purpose ``Purpose/challenge``.
    public static func challenge(
        challenge: String, flowID: String, configID: String, audience: String, deviceID: String
    ) -> DeviceSigningInput {
        DeviceSigningInput(purpose: .challenge, values: [challenge, flowID, configID, audience, deviceID])
    }

    /// The input of an approval decision's signature.
    ///
    /// - Parameters:
    ///   - approvalID: The approval request's ID.
    ///   - flowID: The flow the request lets through.
    ///   - configID: The config ID of the requesting application.
    ///   - audience: The server's issuer URL.
    ///   - deviceID: The deciding trusted device.
    ///   - decision: The decision being signed.
    /// - Returns: The input of purpose ``Purpose/approval``.
    public static func approval(
        approvalID: String, flowID: String, configID: String, audience: String, deviceID: String,
        decision: ApprovalDecision
    ) -> DeviceSigningInput {
        DeviceSigningInput(
            purpose: .approval, values: [approvalID, flowID, configID, audience, deviceID, decision.rawValue])
    }

    /// The input of the signature that lists a device's pending approval requests.
    ///
    /// - Parameters:
    ///   - deviceID: The trusted device whose requests are read.
    ///   - configID: The application's config ID.
    ///   - audience: The server's issuer URL.
    ///   - time: The time of signing, in Unix seconds (also sent in ``ProtocolHeader/deviceTime``).
    /// - Returns: The input of purpose ``Purpose/listApprovals``.
    public static func listApprovals(deviceID: String, configID: String, audience: String, time: Int64)
        -> DeviceSigningInput
    {
        DeviceSigningInput(purpose: .listApprovals, values: [deviceID, configID, audience, String(time)])
    }

    /// The canonical text, or `nil` when a value is empty or holds a line break (such an input is
    /// never signed nor accepted).
    public var canonical: String? {
        guard values.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isNewline) }) else { return nil }
        return ([Self.version, purpose.rawValue] + values).joined(separator: "\n")
    }

    /// The bytes to sign, or `nil` as for ``canonical``.
    public var data: Data? { canonical.map { Data($0.utf8) } }
}
