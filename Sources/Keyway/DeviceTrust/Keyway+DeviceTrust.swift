import Foundation
import KeywayProtocol

extension KeywayClient {
    // MARK: This device

    /// The server's ID of this device when it is trusted for `identifier` (with
    /// ``KeywayOptions/deviceTrust`` set and its key present), else `nil`.
    ///
    /// - Parameter identifier: The identifier the user signs in with.
    /// - Returns: The device's ID, or `nil`.
    public func trustedDeviceID(for identifier: String) async -> String? {
        await deviceAgent?.trustedDevice(for: identifier)?.record.deviceId
    }

    /// Forgets this device's key and record for `identifier`. The server still lists the device
    /// until it is revoked (``KeywaySession/revokeTrustedDevice(id:account:)``).
    ///
    /// - Parameter identifier: The identifier the user signs in with.
    public func forgetTrustedDevice(for identifier: String) async {
        await deviceAgent?.forget(identifier)
    }

    // MARK: Approving sign-ins elsewhere

    /// The sign-ins of `identifier`'s account waiting for approval, as this trusted device sees
    /// them (`GET /v1/devices/{id}/approvals`, signed with the device key). With `waitSeconds`
    /// (0…30) the server holds the answer until a request arrives or the time ran out.
    ///
    /// - Parameters:
    ///   - identifier: The identifier the user signs in with on this device.
    ///   - waitSeconds: How long the server may hold the answer, 0 to 30 seconds.
    /// - Returns: The pending requests.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for `waitSeconds` out of range, without
    ///   ``KeywayOptions/deviceTrust``, or when this device is not trusted for `identifier`;
    ///   ``KeywayError/problem(_:)`` (`invalid_device_signature`) when the server no longer trusts
    ///   it; ``KeywayError/networkFailure(_:)`` or ``KeywayError/invalidResponse(_:)``.
    public func pendingApprovals(for identifier: String, waitSeconds: Int = 0) async throws -> [ApprovalRequest] {
        guard (0...30).contains(waitSeconds) else {
            throw KeywayError.invalidConfiguration("Wait 0 to 30 seconds for approval requests.")
        }
        let agent = try requireDeviceAgent()
        let time = Int64(options.clock.now().timeIntervalSince1970)
        let (deviceId, signature) = try await agent.sign(identifier: identifier) { deviceId in
            .listApprovals(deviceID: deviceId, configID: configID, audience: agent.audience, time: time)
        }
        var components = URLComponents(
            url: server.appending(path: "/v1/devices/\(deviceId)/approvals"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "wait", value: String(waitSeconds))]
        guard let url = components?.url else { throw KeywayError.invalidConfiguration("The device ID is malformed.") }
        let response = try await deviceRequest(
            "GET", url: url,
            headers: [ProtocolHeader.deviceTime: String(time), ProtocolHeader.deviceSignature: signature])
        return try Self.decode(ApprovalRequestList.self, from: response).approvals
    }

    /// Approves or denies a pending sign-in with this trusted device's key. The signature binds
    /// the request, its flow, its application, this server and the decision, so it cannot be
    /// used for any other request.
    ///
    /// - Parameters:
    ///   - request: One of the requests ``pendingApprovals(for:waitSeconds:)`` returned.
    ///   - decision: ``KeywayProtocol/ApprovalDecision/approve`` or ``KeywayProtocol/ApprovalDecision/deny``.
    ///   - identifier: The identifier the user signs in with on this device.
    /// - Throws: ``KeywayError/problem(_:)``: `approval_already_decided`, `approval_expired`,
    ///   `approval_not_found` or `invalid_device_signature`; ``KeywayError/invalidConfiguration(_:)``
    ///   without ``KeywayOptions/deviceTrust``, for a malformed request ID, or when this device is
    ///   not trusted for `identifier`; ``KeywayError/networkFailure(_:)``.
    public func decide(_ request: ApprovalRequest, _ decision: ApprovalDecision, for identifier: String) async throws {
        try await decide(
            approvalId: request.id, flowId: request.flowID, configId: request.configID, decision: decision,
            qrSecret: nil, identifier: identifier)
    }

    /// Approves the sign-in a QR code shows (the `qrData` of an
    /// ``Prompt/awaitApproval(matchingNumber:qrData:expiresAt:)`` prompt on the other device) with
    /// this trusted device's key.
    ///
    /// - Parameters:
    ///   - qrData: The text the QR code carries.
    ///   - identifier: The identifier the user signs in with on this device.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for data that is not Keyway QR data or
    ///   names another server, and the errors of ``decide(_:_:for:)``.
    public func approve(qrData: String, for identifier: String) async throws {
        guard let data = ApprovalQRData(qrData) else {
            throw KeywayError.invalidConfiguration("This is not a Keyway approval code.")
        }
        guard data.server == server.root.absoluteString else {
            throw KeywayError.invalidConfiguration("This approval code is for another server (\(data.server)).")
        }
        try await decide(
            approvalId: data.approvalID, flowId: data.flowID, configId: data.configID, decision: .approve,
            qrSecret: data.secret, identifier: identifier)
    }

    private func decide(
        approvalId: String, flowId: String, configId: String, decision: ApprovalDecision, qrSecret: String?,
        identifier: String
    ) async throws {
        guard ServerURL.isPathSegment(approvalId) else {
            throw KeywayError.invalidConfiguration("The approval request ID is malformed.")
        }
        let agent = try requireDeviceAgent()
        let (deviceId, signature) = try await agent.sign(identifier: identifier) { deviceId in
            .approval(
                approvalID: approvalId, flowID: flowId, configID: configId, audience: agent.audience,
                deviceID: deviceId, decision: decision)
        }
        let body = ApprovalDecisionRequest(
            deviceID: deviceId, decision: decision, signature: signature, qrSecret: qrSecret.map { Sensitive($0) })
        _ = try await deviceRequest(
            "POST", url: server.appending(path: "/v1/approvals/\(approvalId)"),
            body: try WireCoding.makeEncoder().encode(body))
        eventBroadcaster.emit(.approvalDecided, ["approvalId": approvalId, "decision": decision.rawValue])
    }

    // MARK: Plumbing

    private func requireDeviceAgent() throws -> DeviceTrustAgent {
        guard let deviceAgent else {
            throw KeywayError.invalidConfiguration("Trusted devices need KeywayOptions.deviceTrust.")
        }
        return deviceAgent
    }

    private var deviceAgent: DeviceTrustAgent? { flow.driver.deviceAgent }

    private func deviceRequest(
        _ method: String, url: URL, headers extra: [String: String] = [:], body: Data? = nil
    ) async throws -> TransportResponse {
        var headers = extra
        headers[ProtocolHeader.configID] = configID
        headers["Accept"] = "application/json, \(Problem.mediaType)"
        if body != nil { headers["Content-Type"] = "application/json" }
        let response = try await tokenClient.send(TransportRequest(method: method, url: url, headers: headers, body: body))
        guard (200..<300).contains(response.status) else { throw Self.failure(response) }
        return response
    }

    private static func failure(_ response: TransportResponse) -> KeywayError {
        if let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body) {
            return .problem(problem)
        }
        return TokenClient.oauthError(response)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        do {
            return try WireCoding.makeDecoder().decode(type, from: response.body)
        } catch {
            throw KeywayError.invalidResponse("The server's answer could not be read (\(error)).")
        }
    }
}
