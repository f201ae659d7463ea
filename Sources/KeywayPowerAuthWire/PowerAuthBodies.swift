import Foundation

/// The published error body: `{"status": "ERROR", "responseObject": {"code", "message"}}`, with,
/// beyond the published fields, the stable reason of a refusal where the code alone does not tell
/// it, and the index of the PUK a recovery expects next.
public struct PowerAuthErrorBody: Codable, Sendable, Equatable {
    /// The error's fields.
    public struct Detail: Codable, Sendable, Equatable {
        /// The published code (`ERR_AUTHENTICATION`, …).
        public var code: String
        /// A sentence.
        public var message: String
        /// Why, where the code alone does not tell it (Keyway's addition).
        public var reason: String?
        /// The index of the PUK a recovery expects next, after a wrong one.
        public var currentRecoveryPukIndex: Int?

        public init(code: String, message: String, reason: String? = nil, currentRecoveryPukIndex: Int? = nil) {
            self.code = code
            self.message = message
            self.reason = reason
            self.currentRecoveryPukIndex = currentRecoveryPukIndex
        }
    }

    /// Always `ERROR`.
    public var status = "ERROR"
    /// The error.
    public var responseObject: Detail

    public init(responseObject: Detail) {
        self.responseObject = responseObject
    }
}

/// `{"status": "OK"}`, with a response object when the endpoint has one.
public struct PowerAuthOKBody<Object: Codable & Sendable>: Codable, Sendable {
    /// Always `OK`.
    public var status = "OK"
    /// The endpoint's answer.
    public var responseObject: Object?

    public init(responseObject: Object?) {
        self.responseObject = responseObject
    }
}

/// `{"requestObject": …}`, the envelope of unencrypted requests.
public struct PowerAuthRequestEnvelope<Object: Codable & Sendable>: Codable, Sendable {
    /// The request.
    public var requestObject: Object

    public init(requestObject: Object) {
        self.requestObject = requestObject
    }
}

/// The empty object of endpoints without a response object.
public struct PowerAuthEmptyObject: Codable, Sendable, Equatable {
    public init() {}
}
