import Foundation

/// The `X-PowerAuth-Authorization` header of a signed request:
/// `PowerAuth pa_activation_id="…", pa_application_key="…", pa_nonce="…",
/// pa_signature_type="…", pa_signature="…", pa_version="3.3"`.
public struct PowerAuthAuthorizationHeader: Sendable, Hashable, CustomStringConvertible {
    /// The header's name.
    public static let name = "X-PowerAuth-Authorization"

    /// `pa_activation_id`.
    public var activationID: String
    /// `pa_application_key`, the application key's Base64 text.
    public var applicationKey: String
    /// `pa_nonce`: the 16-byte nonce the signature covers.
    public var nonce: Data
    /// `pa_signature_type`: the factors.
    public var factors: PowerAuthSignatureFactors
    /// `pa_signature`: the signature text.
    public var signature: String
    /// `pa_version`: the protocol version, `3.3` for Keyway.
    public var version: String

    /// Builds a header.
    ///
    /// - Parameters:
    ///   - activationID: The activation ID.
    ///   - applicationKey: The application key.
    ///   - nonce: The nonce.
    ///   - factors: The factors.
    ///   - signature: The signature.
    ///   - version: The protocol version.
    public init(
        activationID: String, applicationKey: String, nonce: Data, factors: PowerAuthSignatureFactors, signature: String,
        version: String = PowerAuthVersion.v33.rawValue
    ) {
        self.activationID = activationID
        self.applicationKey = applicationKey
        self.nonce = nonce
        self.factors = factors
        self.signature = signature
        self.version = version
    }

    /// The header's value.
    public var value: String {
        "PowerAuth pa_activation_id=\"\(activationID)\", pa_application_key=\"\(applicationKey)\", "
            + "pa_nonce=\"\(nonce.base64EncodedString())\", pa_signature_type=\"\(factors.typeName)\", "
            + "pa_signature=\"\(signature)\", pa_version=\"\(version)\""
    }

    /// The header's value.
    public var description: String { value }

    /// Reads a header value: the `PowerAuth` scheme, then `name="value"` pairs separated by
    /// commas and/or white space, in any order.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedSignature` for another scheme, a missing or unknown
    ///   parameter value, `.invalidBase64` for the nonce.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value)
        func required(_ name: String) throws(PowerAuthError) -> String {
            guard let value = parameters[name], !value.isEmpty else { throw .malformedSignature("\(name) is missing") }
            return value
        }
        guard let factors = PowerAuthSignatureFactors(typeName: try required("pa_signature_type")), !factors.isEmpty else {
            throw .malformedSignature("pa_signature_type is not a known factor combination")
        }
        self.activationID = try required("pa_activation_id")
        self.applicationKey = try required("pa_application_key")
        self.nonce = try Bytes.base64(try required("pa_nonce"), field: "pa_nonce")
        self.factors = factors
        self.signature = try required("pa_signature")
        self.version = try required("pa_version")
    }
}

/// The `X-PowerAuth-Encryption` header of an encrypted request without a signature:
/// `PowerAuth version="3.3", application_key="…"` and, in activation scope, `activation_id="…"`.
public struct PowerAuthEncryptionHeader: Sendable, Hashable, CustomStringConvertible {
    /// The header's name.
    public static let name = "X-PowerAuth-Encryption"

    /// `version`.
    public var version: String
    /// `application_key`.
    public var applicationKey: String
    /// `activation_id`, in activation scope.
    public var activationID: String?

    /// Builds a header.
    ///
    /// - Parameters:
    ///   - applicationKey: The application key.
    ///   - activationID: The activation ID in activation scope.
    ///   - version: The protocol version.
    public init(applicationKey: String, activationID: String? = nil, version: String = PowerAuthVersion.v33.rawValue) {
        self.version = version
        self.applicationKey = applicationKey
        self.activationID = activationID
    }

    /// The header's value.
    public var value: String {
        var text = "PowerAuth version=\"\(version)\", application_key=\"\(applicationKey)\""
        if let activationID { text += ", activation_id=\"\(activationID)\"" }
        return text
    }

    /// The header's value.
    public var description: String { value }

    /// Reads a header value.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedSignature` for another scheme or a missing parameter.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value)
        guard let version = parameters["version"], let applicationKey = parameters["application_key"] else {
            throw .malformedSignature("version and application_key are required")
        }
        self.version = version
        self.applicationKey = applicationKey
        self.activationID = parameters["activation_id"]
    }
}

/// The `PowerAuth name="value", …` syntax both headers share.
enum PowerAuthHeaderParameters {
    static func parse(_ value: String) throws(PowerAuthError) -> [String: String] {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("PowerAuth"), trimmed.dropFirst(9).first?.isWhitespace == true else {
            throw .malformedSignature("the header does not use the PowerAuth scheme")
        }
        var parameters: [String: String] = [:]
        var rest = Substring(trimmed.dropFirst(9))
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "," }
            if rest.isEmpty { break }
            guard let equals = rest.firstIndex(of: "=") else { throw .malformedSignature("a parameter has no value") }
            let name = String(rest[rest.startIndex..<equals]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw .malformedSignature("the value of \(name) is not quoted")
            }
            guard parameters[name] == nil else { throw .malformedSignature("\(name) appears twice") }
            parameters[name] = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return parameters
    }
}
