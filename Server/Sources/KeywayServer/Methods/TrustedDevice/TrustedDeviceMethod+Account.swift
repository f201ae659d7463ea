import Foundation
import KeywayProtocol

/// Trusted devices on the account-management step: stop trusting one, or all. Revoking makes the
/// account safer, so it needs no fresh verification.
extension TrustedDeviceMethod {
    var manageOperationNames: [String] { ["revokeDevice", "revokeAllDevices"] }

    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        guard context.policy.devices.enabled, !context.trustedDevices.isEmpty else { return [] }
        return [
            ManageOperation(
                name: "revokeDevice", label: "Stop trusting a device", needsReverification: false,
                fields: [
                    Field(
                        name: "deviceId", type: .select, required: true, label: "Device",
                        options: context.trustedDevices.map { FieldOption(value: $0.id, label: $0.name) })
                ]),
            ManageOperation(name: "revokeAllDevices", label: "Stop trusting every device", needsReverification: false),
        ]
    }

    /// Its operations need no check before the fresh verification.
    func precheck(_ operation: String, input: DeviceOperationInput, _ method: MethodContext) throws {}

    func manage(_ operation: String, input: DeviceOperationInput, _ method: inout MethodContext) async throws
        -> FlowProblem?
    {
        guard let user = method.user else { throw FlowProblem.internalError }
        let devices = method.repositories.trustedDevices
        switch operation {
        case "revokeDevice":
            guard let deviceId = input.deviceId, method.trustedDevices.contains(where: { $0.id == deviceId }),
                try await devices.revoke(id: deviceId, userId: user.id, now: method.now)
            else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "deviceId", reason: "Choose one of the trusted devices listed.")
                ])
            }
            method.leaveNotice("deviceRevoked")
        case "revokeAllDevices":
            _ = try await devices.revokeAll(userId: user.id, applicationId: method.application.id, now: method.now)
            method.leaveNotice("devicesRevoked")
        default:
            throw FlowProblem.invalidStep
        }
        method.logger.notice(
            "trusted device revoked", metadata: ["user": "\(user.id)", "device": "\(input.deviceId ?? "all")"])
        method.trustedDevices = try await devices.trusted(userId: user.id, applicationId: method.application.id, now: method.now)
        return nil
    }
}

/// What `revokeDevice` reads: the device to stop trusting.
struct DeviceOperationInput: Codable, Sendable, Equatable {
    var deviceId: String?
}
