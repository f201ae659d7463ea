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

    /// Reads a body with or without its `status` (a reader needs only the error).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(String.self, forKey: .status) ?? "ERROR"
        responseObject = try container.decode(Detail.self, forKey: .responseObject)
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

    /// Reads a body with or without its `status` (a reader needs only the answer).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(String.self, forKey: .status) ?? "OK"
        responseObject = try container.decodeIfPresent(Object.self, forKey: .responseObject)
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

/// `POST /pa/v3/keystore/create`'s request object: the request JWT.
public struct KeystoreCreateRequest: Codable, Sendable {
    /// The HS256 request JWT.
    public var jwt: String?

    public init(jwt: String? = nil) {
        self.jwt = jwt
    }
}

/// `POST /pa/v3/keystore/create`'s answer: the answer JWT in `responseObject`, and in
/// `requestObject` as the published example writes it (a reader takes either).
public struct KeystoreCreateResponse: Codable, Sendable {
    /// `{"jwt": …}`.
    public struct Object: Codable, Sendable {
        /// The ES256 answer JWT.
        public var jwt: String

        public init(jwt: String) {
            self.jwt = jwt
        }
    }

    /// Always `OK`.
    public var status = "OK"
    /// The answer.
    public var responseObject: Object?
    /// The answer again, where the published example puts it.
    public var requestObject: Object?

    /// The answer carrying `jwt` in both places.
    public init(jwt: String) {
        responseObject = Object(jwt: jwt)
        requestObject = Object(jwt: jwt)
    }

    /// Reads an answer with or without its `status`, the JWT in either object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(String.self, forKey: .status) ?? "OK"
        responseObject = try container.decodeIfPresent(Object.self, forKey: .responseObject)
        requestObject = try container.decodeIfPresent(Object.self, forKey: .requestObject)
    }

    /// The JWT, from `responseObject` or else `requestObject`.
    public var jwt: String? { (responseObject ?? requestObject)?.jwt }
}
