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
    func precheck(_ operation: String, input: DeviceOperationInput, _ context: FlowEngine.Context, engine: FlowEngine) throws {}

    func manage(
        _ operation: String, input: DeviceOperationInput, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        guard let user = context.user else { throw FlowProblem.internalError }
        switch operation {
        case "revokeDevice":
            guard let deviceId = input.deviceId, context.trustedDevices.contains(where: { $0.id == deviceId }),
                try await repositories.trustedDevices.revoke(id: deviceId, userId: user.id, now: context.now)
            else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "deviceId", reason: "Choose one of the trusted devices listed.")
                ])
            }
            context.progress.notice = "deviceRevoked"
        case "revokeAllDevices":
            _ = try await repositories.trustedDevices.revokeAll(
                userId: user.id, applicationId: context.application.id, now: context.now)
            context.progress.notice = "devicesRevoked"
        default:
            throw FlowProblem.invalidStep
        }
        engine.logger.notice(
            "trusted device revoked", metadata: ["user": "\(user.id)", "device": "\(input.deviceId ?? "all")"])
        context.trustedDevices = try await repositories.trustedDevices.trusted(
            userId: user.id, applicationId: context.application.id, now: context.now)
        return nil
    }
}

/// What `revokeDevice` reads: the device to stop trusting.
struct DeviceOperationInput: Codable, Sendable, Equatable {
    var deviceId: String?
}
