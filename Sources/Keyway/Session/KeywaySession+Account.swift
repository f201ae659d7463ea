import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import KeywayProtocol

/// The signed-in account's own calls, made with the session's access token — refreshed first when
/// it is about to expire, and once more when the server no longer accepts it — so an app never
/// handles a token:
///
/// ```swift
/// let me = try await session.userInfo()
/// let devices = try await session.trustedDevices()
/// try await session.signOut(scope: .allDevices)
/// ```
///
/// Each call takes an optional `account` (a user ID of ``accounts()``; `nil` for the current
/// one) and throws ``SessionError/noAccessTokenPresent`` when nobody is signed in.
extension KeywaySession {
    /// The user's claims from the OpenID Connect UserInfo endpoint.
    ///
    /// - Parameter account: The account; `nil` for the current one.
    /// - Returns: The subject and the claims of the token's scopes.
    /// - Throws: ``SessionError`` or ``KeywayError``.
    public func userInfo(account: String? = nil) async throws -> UserInfo {
        let client = self.keyway.tokenClient
        return try await withAccessToken(account) { try await client.userInfo(accessToken: $0) }
    }

    /// The user's profile (`GET /v1/me`) with the project's field schema.
    ///
    /// - Parameter account: The account; `nil` for the current one.
    /// - Returns: The profile and its schema.
    /// - Throws: ``SessionError`` or ``KeywayError``.
    public func profile(account: String? = nil) async throws -> UserProfileDocument {
        let client = self.keyway.tokenClient
        return try await withAccessToken(account) { try await client.profile(accessToken: $0) }
    }

    /// Changes profile fields (a merge patch: `nil` removes a field) and returns the saved
    /// profile; invalid fields save nothing.
    ///
    /// - Parameters:
    ///   - changes: The fields to set, and `nil` for those to remove.
    ///   - account: The account; `nil` for the current one.
    /// - Returns: The saved profile.
    /// - Throws: ``SessionError``, or ``KeywayError/problem(_:)`` with `invalidFields`.
    public func updateProfile(_ changes: [String: ProfileValue?], account: String? = nil) async throws
        -> UserProfileDocument
    {
        let client = self.keyway
        return try await withAccessToken(account) { try await client.updateProfile(accessToken: $0, changes: changes) }
    }

    /// The user's trusted devices in this application (`GET /v1/me/devices`).
    ///
    /// - Parameter account: The account; `nil` for the current one.
    /// - Returns: The trusted devices.
    /// - Throws: ``SessionError`` or ``KeywayError``.
    public func trustedDevices(account: String? = nil) async throws -> [TrustedDevice] {
        let client = self.keyway.tokenClient
        return try await withAccessToken(account) { try await client.trustedDevices(accessToken: $0) }
    }

    /// Stops trusting one of the user's devices: its next sign-in asks for the second factor.
    ///
    /// - Parameters:
    ///   - id: The device's ``KeywayProtocol/TrustedDevice/id``.
    ///   - account: The account; `nil` for the current one.
    /// - Throws: ``SessionError``, or ``KeywayError/problem(_:)`` (`not_found`) for an unknown device.
    public func revokeTrustedDevice(id: String, account: String? = nil) async throws {
        let client = self.keyway.tokenClient
        try await withAccessToken(account) { try await client.revokeTrustedDevice(id: id, accessToken: $0) }
    }

    /// Stops trusting every device of the user in this application.
    ///
    /// - Parameter account: The account; `nil` for the current one.
    /// - Throws: ``SessionError`` or ``KeywayError``.
    public func revokeAllTrustedDevices(account: String? = nil) async throws {
        let client = self.keyway.tokenClient
        try await withAccessToken(account) { try await client.revokeAllTrustedDevices(accessToken: $0) }
    }

    /// Adds an account's access token to a request for the app's own API: `Authorization:
    /// Bearer …`, or for a DPoP-bound token `Authorization: DPoP …` with a fresh `DPoP` proof for
    /// the request's method and URL, bound to the token (`ath`). The token is refreshed first when
    /// it is about to expire. When the API answers `401` with a `DPoP-Nonce` header, build the
    /// request again with that `dpopNonce`.
    ///
    /// - Parameters:
    ///   - request: The request to the app's API, with its absolute URL and method.
    ///   - dpopNonce: The nonce the API asked for in `DPoP-Nonce`, on a retry.
    ///   - account: The account; `nil` for the current one.
    /// - Returns: The request with its `Authorization` (and `DPoP`) headers.
    /// - Throws: ``SessionError`` (``SessionError/noAccessTokenPresent`` when nobody is signed
    ///   in), or ``KeywayError/invalidConfiguration(_:)`` for a request without a URL, a malformed
    ///   nonce, or a bound token without ``KeywayOptions/dpopKey``.
    public func authorizedRequest(_ request: URLRequest, dpopNonce: String? = nil, account: String? = nil)
        async throws -> URLRequest
    {
        guard let token = try await accessToken(account: account) else { throw SessionError.noAccessTokenPresent }
        return try await KeywayClient.authorizedRequest(
            request, accessToken: token, dpopNonce: dpopNonce, tokenClient: keyway.tokenClient)
    }

    /// Runs `call` with a valid access token of `account`; when the server answers `401` (the
    /// token was refused before its expiry), refreshes once and runs it again.
    private func withAccessToken<Value: Sendable>(
        _ account: String?, _ call: @Sendable (Sensitive<String>) async throws -> Value
    ) async throws -> Value {
        guard let token = try await accessToken(account: account) else { throw SessionError.noAccessTokenPresent }
        do {
            return try await call(token)
        } catch KeywayError.oauth(status: 401, error: _) {
            return try await call(try await refresh(account: account).response.accessToken)
        }
    }
}
