import Foundation

/// A trusted device's answer to an approval request.
public struct ApprovalDecision: OpenStringValue {
    public let rawValue: String
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
    public var flowId: String
    /// The application the sign-in is for.
    public var applicationName: String
    /// The config ID of that application.
    public var configId: String
    /// Where the request comes from, coarsely (`203.0.113.x`), when known.
    public var location: String?
    /// The requesting client's `User-Agent`, when known.
    public var userAgent: String?
    /// The number the requesting device shows.
    public var matchingNumber: String
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        id: String, flowId: String, applicationName: String, configId: String, location: String?, userAgent: String?,
        matchingNumber: String, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.flowId = flowId
        self.applicationName = applicationName
        self.configId = configId
        self.location = location
        self.userAgent = userAgent
        self.matchingNumber = matchingNumber
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Answer of `GET /v1/devices/{deviceId}/approvals`.
public struct ApprovalRequestList: Codable, Sendable, Equatable {
    public var approvals: [ApprovalRequest]

    public init(approvals: [ApprovalRequest]) {
        self.approvals = approvals
    }
}

/// Body of `POST /v1/approvals/{approvalId}`: a trusted device approves or denies.
public struct ApprovalDecisionRequest: Codable, Sendable, Equatable {
    /// The deciding trusted device.
    public var deviceId: String
    public var decision: ApprovalDecision
    /// ES256 signature (raw `r‖s`, base64url) of the approval input.
    public var signature: String
    /// The secret from scanned QR data, for a QR approval.
    public var qrSecret: Sensitive<String>?

    public init(deviceId: String, decision: ApprovalDecision, signature: String, qrSecret: Sensitive<String>? = nil) {
        self.deviceId = deviceId
        self.decision = decision
        self.signature = signature
        self.qrSecret = qrSecret
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
    public var configId: String
    /// The approval request's ID.
    public var approvalId: String
    /// The flow the request lets through (its approval signature binds it).
    public var flowId: String
    /// The single-use secret that proves the QR code was seen.
    public var secret: String

    public init(server: String, configId: String, approvalId: String, flowId: String, secret: String) {
        self.server = server
        self.configId = configId
        self.approvalId = approvalId
        self.flowId = flowId
        self.secret = secret
    }

    /// Parses QR data; `nil` unless it is well formed.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix(Self.prefix), let components = URLComponents(string: "x:?" + text.dropFirst(Self.prefix.count))
        else { return nil }
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value, !value.isEmpty, values[item.name] == nil else { return nil }
            values[item.name] = value
        }
        guard let server = values["server"], let configId = values["config"], let approvalId = values["request"],
            let flowId = values["flow"], let secret = values["secret"]
        else { return nil }
        self.init(server: server, configId: configId, approvalId: approvalId, flowId: flowId, secret: secret)
    }

    /// The text a QR code carries.
    public var text: String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "server", value: server), URLQueryItem(name: "config", value: configId),
            URLQueryItem(name: "request", value: approvalId), URLQueryItem(name: "flow", value: flowId),
            URLQueryItem(name: "secret", value: secret),
        ]
        return Self.prefix + (components.percentEncodedQuery ?? "")
    }
}

/// A trusted device of the signed-in user, as account management and the admin API list it.
public struct TrustedDevice: Codable, Sendable, Equatable {
    public var id: String
    /// The name given at enrolment.
    public var name: String
    /// Whether its key is kept in hardware (Secure Enclave).
    public var hardwareBacked: Bool
    /// The `User-Agent` of the enrolling client, when known.
    public var userAgent: String?
    public var createdAt: Date
    /// When it last proved itself.
    public var lastUsedAt: Date?
    /// When its trust ends unless it is used again (sliding) or at all (absolute).
    public var trustedUntil: Date

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
    public var devices: [TrustedDevice]

    public init(devices: [TrustedDevice]) {
        self.devices = devices
    }
}
