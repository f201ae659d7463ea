import KeywayProtocol

/// `POST /admin/applications`.
package struct CreateApplicationRequest: Codable, Sendable {
    package var name: String
    /// `public` (default) or `confidential`.
    package var clientType: String?
}

/// `POST /admin/applications/{configId}/invite-codes`.
package struct InviteCodeRequest: Codable, Sendable {
    /// Lifetime in seconds (default 7 days, at most a year).
    package var expiresInSeconds: Int?
}

/// `POST /admin/applications/{configId}/start-tokens`.
package struct StartTokenRequest: Codable, Sendable {
    package var flowType: FlowType
    /// An email address or an E.164 phone number.
    package var identifier: String
    /// Lifetime in seconds (default 600, at most 3600).
    package var expiresInSeconds: Int?
}
