import HTTPTypes
import Hummingbird
import KeywayProtocol

/// App Attest registration, with the application's config ID header:
/// - `POST /v1/app-attest/challenges`: a single-use challenge (five minutes);
/// - `POST /v1/app-attest/keys`: registers a key attested for a challenge.
struct AppAttestRoutes {
    let service: AppAttestService

    private static let configIdHeader = HTTPField.Name(ProtocolHeader.configID)!

    func register(on router: RouteTable) {
        let router = router.declaring(.anyone)
        router.post("v1/app-attest/challenges") { request, context in
            let challenge = try await service.challenge(
                configId: request.headers[Self.configIdHeader], clientAddress: context.remoteAddress)
            return try HTTPResponses.json(challenge, status: .created)
        }
        router.post("v1/app-attest/keys") { request, context in
            let body = try await RequestDecoding.json(AppAttestKeyRequest.self, from: request, context: context)
            let registered = try await service.register(configId: request.headers[Self.configIdHeader], request: body)
            return try HTTPResponses.json(registered, status: .created)
        }
    }
}
