import Hummingbird
import KeywayProtocol

/// Dev-mode only: the outbox of delivered messages. Not registered outside dev mode.
struct DevRoutes {
    let outbox: DevOutbox

    func register(on router: RouteTable) {
        let router = router.declaring(.devMode)
        router.get("dev/outbox") { request, _ in
            let recipient = request.uri.queryParameters.get("to")
            return try HTTPResponses.json(OutboxListing(messages: await outbox.list(to: recipient)))
        }
    }
}
