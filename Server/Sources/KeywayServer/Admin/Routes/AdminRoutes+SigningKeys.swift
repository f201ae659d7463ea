import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// Signing keys: listed and rotated (this instance reads them again at once).
    func signingKeys(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.get("signing-keys") { _, context in
            try await answer(context) { try HTTPResponses.json(try await service.signingKeys()) }
        }
        admin.post("signing-keys/rotate") { request, context in
            let body = try await optionalJSON(RotateSigningKeyRequest.self, request, context) ?? RotateSigningKeyRequest()
            return try await answer(context) {
                let rotation = try await service.rotateSigningKey(
                    algorithm: body.algorithm, prePublicationSeconds: body.prePublicationSeconds)
                try await keysChanged()
                logger.notice(
                    "admin: signing key rotation",
                    metadata: [
                        "algorithm": "\(rotation.algorithm)", "next": "\(rotation.nextKid)",
                        "activatesAt": "\(rotation.activatesAt)", "created": "\(rotation.created)",
                    ])
                return try HTTPResponses.json(rotation, status: rotation.created ? .created : .ok)
            }
        }
    }
}
