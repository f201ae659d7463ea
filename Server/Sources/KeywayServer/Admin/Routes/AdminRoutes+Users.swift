import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// Users: listed, read, blocked and unblocked; their trusted devices listed and revoked.
    func users(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.get("users") { request, context in
            guard let email = request.uri.queryParameters.get("email"), !email.isEmpty else {
                throw FlowProblem.invalidRequest(
                    [InvalidField(name: "email", reason: "Give the email address to look up: /admin/users?email=ADDRESS.")])
            }
            return try await answer(context) { try HTTPResponses.json(AdminUserList(users: try await service.users(email: email))) }
        }
        // Messages the delivery outbox gave up on, newest first; `?configId=` narrows to the
        // application's project.
        admin.get("users/:userId") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) { try HTTPResponses.json(try await service.user(id: userId)) }
        }
        admin.post("users/:userId/block") { _, context in
            try await setBlocked(true, context)
        }
        admin.post("users/:userId/unblock") { _, context in
            try await setBlocked(false, context)
        }
        admin.get("users/:userId/devices") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) {
                try HTTPResponses.json(TrustedDeviceList(devices: try await service.trustedDevices(userId: userId)))
            }
        }
        admin.delete("users/:userId/devices/:deviceId") { _, context in
            let userId = try context.parameters.require("userId")
            let deviceId = try context.parameters.require("deviceId")
            return try await answer(context) {
                try await service.revokeDevice(userId: userId, deviceId: deviceId)
                logger.notice("admin: trusted device revoked", metadata: ["user": "\(userId)", "device": "\(deviceId)"])
                return Response(status: .noContent)
            }
        }
        admin.delete("users/:userId/devices") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) {
                let count = try await service.revokeDevices(userId: userId)
                logger.notice("admin: trusted devices revoked", metadata: ["user": "\(userId)", "count": "\(count)"])
                return Response(status: .noContent)
            }
        }
    
    }
}
