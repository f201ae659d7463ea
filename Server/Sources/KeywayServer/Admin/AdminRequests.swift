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

/// `PATCH /admin/applications/{configId}`: the settings to change; those absent stay as they are.
package struct UpdateApplicationRequest: Codable, Sendable {
    /// `ES256` or `RS256`.
    package var idTokenSignedResponseAlg: String?
    /// Replaces the origins allowed cross-origin access; `[]` allows none.
    package var corsOrigins: [String]?

    package init(idTokenSignedResponseAlg: String? = nil, corsOrigins: [String]? = nil) {
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.corsOrigins = corsOrigins
    }
}
