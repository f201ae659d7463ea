import Foundation
import KeywayProtocol

/// The signed-in user's trusted devices in this application (`/v1/me/devices`), with a given
/// access token: the session's account calls (``KeywaySession/trustedDevices(account:)`` and the
/// revocations) bring the token.
extension TokenClient {
    /// The signed-in user's trusted devices in this application (`GET /v1/me/devices`); an app
    /// calls ``KeywaySession/trustedDevices(account:)``, which brings the token.
    ///
    /// - Parameter accessToken: A valid access token of the user.
    /// - Returns: The user's trusted devices.
    /// - Throws: ``KeywayError``: `invalidConfiguration` for a token that cannot be sent, `problem`
    ///   or `oauth` when the server refuses, `networkFailure`, `invalidResponse`.
    func trustedDevices(accessToken: Sensitive<String>) async throws -> [TrustedDevice] {
        let response = try await bearerRequest(
            "GET", url: server.appending(path: "/v1/me/devices"), accessToken: accessToken)
        guard response.status == 200 else { throw Self.accountFailure(response) }
        return try Self.decodeAccount(TrustedDeviceList.self, from: response).devices
    }

    /// Stops trusting one of the signed-in user's devices: its next sign-in asks for the second
    /// factor again.
    ///
    /// - Parameters:
    ///   - id: The device's ``KeywayProtocol/TrustedDevice/id``.
    ///   - accessToken: A valid access token of the user.
    /// - Throws: ``KeywayError/problem(_:)`` (`not_found`) for an unknown device;
    ///   ``KeywayError/invalidConfiguration(_:)`` for a malformed ID or a token that cannot be sent;
    ///   another ``KeywayError`` when the request fails.
    func revokeTrustedDevice(id: String, accessToken: Sensitive<String>) async throws {
        guard ServerURL.isPathSegment(id) else {
            throw KeywayError.invalidConfiguration("The device ID is malformed.")
        }
        let response = try await bearerRequest(
            "DELETE", url: server.appending(path: "/v1/me/devices/\(id)"), accessToken: accessToken)
        guard response.status == 204 else { throw Self.accountFailure(response) }
    }

    /// Stops trusting every device of the signed-in user in this application.
    ///
    /// - Parameter accessToken: A valid access token of the user.
    /// - Throws: ``KeywayError``: `invalidConfiguration` for a token that cannot be sent, `problem`
    ///   or `oauth` when the server refuses, `networkFailure`.
    func revokeAllTrustedDevices(accessToken: Sensitive<String>) async throws {
        let response = try await bearerRequest(
            "DELETE", url: server.appending(path: "/v1/me/devices"), accessToken: accessToken)
        guard response.status == 204 else { throw Self.accountFailure(response) }
    }

    private static func accountFailure(_ response: TransportResponse) -> KeywayError {
        if let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body) {
            return .problem(problem)
        }
        return oauthError(response)
    }

    private static func decodeAccount<T: Decodable>(_ type: T.Type, from response: TransportResponse) throws -> T {
        do {
            return try WireCoding.makeDecoder().decode(type, from: response.body)
        } catch {
            throw KeywayError.invalidResponse("The server's answer could not be read (\(error)).")
        }
    }
}
