import Foundation

/// A trusted device's answer to an approval request.
public struct ApprovalDecision: OpenStringValue {
    /// The decision as the wire spells it.
    public let rawValue: String
    /// Creates a decision from its wire spelling; unknown values are kept as they are.
    ///
    /// - Parameter rawValue: The decision as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Let the sign-in through.
    public static let approve = ApprovalDecision(rawValue: "approve")
    /// Refuse it: the waiting sign-in fails.
    public static let deny = ApprovalDecision(rawValue: "deny")
}

/// A sign-in waiting for approval, as a trusted device of the same user sees it.
public struct ApprovalRequest: Codable, Sendable, Equatable {
    /// The request's ID.
    public var id: String
    /// The flow it lets through (bound into the decision's signature).
    public var flowID: String
    /// The application the sign-in is for.
    public var applicationName: String
    /// The config ID of that application.
    public var configID: String
    /// Where the request comes from, coarsely (`203.0.113.x`), when known.
    public var location: String?
    /// The requesting client's `User-Agent`, when known.
    public var userAgent: String?
    /// The number the requesting device shows.
    public var matchingNumber: String
    /// When the sign-in asked for approval.
    public var createdAt: Date
    /// When the request expires unanswered.
    public var expiresAt: Date

    /// Creates an approval request with the given values.
    ///
    /// - Parameters:
    ///   - id: The request's ID.
    ///   - flowID: The flow it lets through.
    ///   - applicationName: The application the sign-in is for.
    ///   - configID: The config ID of that application.
    ///   - location: Where the request comes from, coarsely, when known.
    ///   - userAgent: The requesting client's `User-Agent`, when known.
    ///   - matchingNumber: The number the requesting device shows.
    ///   - createdAt: When the sign-in asked for approval.
    ///   - expiresAt: When the request expires unanswered.
    public init(
        id: String, flowID: String, applicationName: String, configID: String, location: String?, userAgent: String?,
        matchingNumber: String, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.flowID = flowID
        self.applicationName = applicationName
        self.configID = configID
        self.location = location
        self.userAgent = userAgent
        self.matchingNumber = matchingNumber
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, flowID = "flowId", applicationName, configID = "configId", location, userAgent, matchingNumber, createdAt, expiresAt
    }
}

/// Answer of `GET /v1/devices/{deviceId}/approvals`.
public struct ApprovalRequestList: Codable, Sendable, Equatable {
    /// The device's pending approval requests.
    public var approvals: [ApprovalRequest]

    /// Creates a list with the given requests.
    ///
    /// - Parameter approvals: The device's pending approval requests.
    public init(approvals: [ApprovalRequest]) {
        self.approvals = approvals
    }
}

/// Body of `POST /v1/approvals/{approvalId}`: a trusted device approves or denies.
public struct ApprovalDecisionRequest: Codable, Sendable, Equatable {
    /// The deciding trusted device.
    public var deviceID: String
    /// Whether the device approves or denies.
    public var decision: ApprovalDecision
    /// ES256 signature (raw `r‖s`, base64url) of the approval input.
    public var signature: String
    /// The secret from scanned QR data, for a QR approval.
    public var qrSecret: Sensitive<String>?

    /// Creates a decision body with the given values.
    ///
    /// - Parameters:
    ///   - deviceID: The deciding trusted device.
    ///   - decision: Whether the device approves or denies.
    ///   - signature: ES256 signature (raw `r‖s`, base64url) of the approval input.
    ///   - qrSecret: The secret from scanned QR data, for a QR approval; `nil` otherwise.
    public init(deviceID: String, decision: ApprovalDecision, signature: String, qrSecret: Sensitive<String>? = nil) {
        self.deviceID = deviceID
        self.decision = decision
        self.signature = signature
        self.qrSecret = qrSecret
    }

    private enum CodingKeys: String, CodingKey {
        case deviceID = "deviceId", decision, signature, qrSecret
    }
}

/// What QR data names: the server, the application and the approval request, with the request's
/// single-use secret. Encoded as `keyway-approve:v1?server=…&config=…&request=…&flow=…&secret=…`.
public struct ApprovalQRData: Sendable, Equatable {
    /// The scheme and version prefix.
    public static let prefix = "keyway-approve:v1?"

    /// The server's issuer URL.
    public var server: String
    /// The config ID of the requesting application.
    public var configID: String
    /// The approval request's ID.
    public var approvalID: String
    /// The flow the request lets through (its approval signature binds it).
    public var flowID: String
    /// The single-use secret that proves the QR code was seen.
    public var secret: String

    /// Creates QR data with the given values.
    ///
    /// - Parameters:
    ///   - server: The server's issuer URL.
    ///   - configID: The config ID of the requesting application.
    ///   - approvalID: The approval request's ID.
    ///   - flowID: The flow the request lets through.
    ///   - secret: The request's single-use secret.
    public init(server: String, configID: String, approvalID: String, flowID: String, secret: String) {
        self.server = server
        self.configID = configID
        self.approvalID = approvalID
        self.flowID = flowID
        self.secret = secret
    }

    /// Parses QR data; `nil` unless it is well formed.
    ///
    /// Surrounding whitespace is ignored. No query item may repeat or be empty, and `server`,
    /// `config`, `request`, `flow` and `secret` must all be present.
    ///
    /// - Parameter text: The text a QR code carries, starting with ``prefix``.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(Self.prefix), let components = URLComponents(string: "x:?" + text.dropFirst(Self.prefix.count))
        else { return nil }
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value, !value.isEmpty, values[item.name] == nil else { return nil }
            values[item.name] = value
        }
        guard let server = values["server"], let configID = values["config"], let approvalID = values["request"],
            let flowID = values["flow"], let secret = values["secret"]
        else { return nil }
        self.init(server: server, configID: configID, approvalID: approvalID, flowID: flowID, secret: secret)
    }

    /// The text a QR code carries.
    public var text: String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "server", value: server), URLQueryItem(name: "config", value: configID),
            URLQueryItem(name: "request", value: approvalID), URLQueryItem(name: "flow", value: flowID),
            URLQueryItem(name: "secret", value: secret),
        ]
        return Self.prefix + (components.percentEncodedQuery ?? "")
    }
}

/// A trusted device of the signed-in user, as account management and the admin API list it.
public struct TrustedDevice: Codable, Sendable, Equatable {
    /// The device's ID.
    public var id: String
    /// The name given at enrolment.
    public var name: String
    /// Whether its key is kept in hardware (Secure Enclave).
    public var hardwareBacked: Bool
    /// The `User-Agent` of the enrolling client, when known.
    public var userAgent: String?
    /// When the device was enrolled.
    public var createdAt: Date
    /// When it last proved itself.
    public var lastUsedAt: Date?
    /// When its trust ends unless it is used again (sliding) or at all (absolute).
    public var trustedUntil: Date

    /// Creates a trusted device with the given values.
    ///
    /// - Parameters:
    ///   - id: The device's ID.
    ///   - name: The name given at enrolment.
    ///   - hardwareBacked: Whether its key is kept in hardware.
    ///   - userAgent: The `User-Agent` of the enrolling client, when known.
    ///   - createdAt: When the device was enrolled.
    ///   - lastUsedAt: When it last proved itself, if ever.
    ///   - trustedUntil: When its trust ends.
    public init(
        id: String, name: String, hardwareBacked: Bool, userAgent: String?, createdAt: Date, lastUsedAt: Date?,
        trustedUntil: Date
    ) {
        self.id = id
        self.name = name
        self.hardwareBacked = hardwareBacked
        self.userAgent = userAgent
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.trustedUntil = trustedUntil
    }
}

/// Answer of `GET /v1/me/devices`.
public struct TrustedDeviceList: Codable, Sendable, Equatable {
    /// The user's trusted devices.
    public var devices: [TrustedDevice]

    /// Creates a list with the given devices.
    ///
    /// - Parameter devices: The user's trusted devices.
    public init(devices: [TrustedDevice]) {
        self.devices = devices
    }
}
