import Foundation
import KeywayProtocol

/// What a session needs of its SDK instance: its configuration, the token calls, the flow (to
/// start account management and guest upgrades), the events and the logs. A session holds this
/// rather than the ``KeywayClient``, so the client owns its ``KeywayClient/session`` without a
/// reference cycle.
struct SessionClient: Sendable {
    let configID: String
    let server: ServerURL
    let options: KeywayOptions
    let tokenClient: TokenClient
    let eventBroadcaster: EventBroadcaster
    let logger: KeywayLogger
    let flow: KeywayFlow

    init(_ keyway: KeywayClient) {
        self.init(
            configID: keyway.configID, server: keyway.server, options: keyway.options, tokenClient: keyway.tokenClient,
            eventBroadcaster: keyway.eventBroadcaster, logger: keyway.logger, flow: keyway.flow)
    }

    init(
        configID: String, server: ServerURL, options: KeywayOptions, tokenClient: TokenClient,
        eventBroadcaster: EventBroadcaster, logger: KeywayLogger, flow: KeywayFlow
    ) {
        self.configID = configID
        self.server = server
        self.options = options
        self.tokenClient = tokenClient
        self.eventBroadcaster = eventBroadcaster
        self.logger = logger
        self.flow = flow
    }

    /// Saves profile changes with `accessToken` and announces them (``KeywayEvent/Name/userDataSaved``,
    /// with the fields' names).
    func updateProfile(accessToken: Sensitive<String>, changes: [String: ProfileValue?]) async throws
        -> UserProfileDocument
    {
        let document = try await tokenClient.updateProfile(accessToken: accessToken, changes: changes)
        eventBroadcaster.emit(.userDataSaved, ["fields": changes.keys.sorted().joined(separator: ",")])
        return document
    }

    /// Starts a flow of `flowType` that the signed-in user authorizes with `accessToken`
    /// (account management, a guest's upgrade). A token that cannot be sent ends the flow in an
    /// error update, as a refused start does.
    func startAuthorizedFlow(
        _ flowType: FlowType, accessToken: Sensitive<String>, identifier: String, inviteCode: String? = nil,
        codeChallenge: String? = nil, options: FlowStartOptions = FlowStartOptions()
    ) async {
        let authorization: Result<[String: String], KeywayError>
        do {
            authorization = .success(
                try await tokenClient.authorizationHeaders(
                    method: "POST", url: server.appending(path: "/v1/flows"), accessToken: accessToken, nonce: nil))
        } catch let error as KeywayError {
            authorization = .failure(error)
        } catch {
            authorization = .failure(.invalidConfiguration(String(describing: error)))
        }
        await flow.driver.start(
            flowType: flowType, identifier: identifier, startToken: nil, inviteCode: inviteCode,
            codeChallenge: codeChallenge, options: options, authorization: authorization)
    }
}
