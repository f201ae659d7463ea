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

    /// Reads a header value strictly: the `PowerAuth` scheme, then `name="value"` pairs separated
    /// by commas and/or white space, in any order, each once; a known protocol version, an
    /// activation ID of 1 to 64 printable ASCII characters, a 16-byte application key and nonce,
    /// a known combination of factors, and (from 3.1) a Base64 signature of 16 bytes per factor.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedHeader` with a sentence saying what is wrong.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value, name: Self.name)
        let version = try PowerAuthHeaderParameters.version(parameters["pa_version"])
        guard let typeName = parameters["pa_signature_type"], typeName.utf8.count <= 64,
            let factors = PowerAuthSignatureFactors(typeName: typeName.lowercased()), !factors.isEmpty
        else { throw .malformedHeader("pa_signature_type is not a known combination of factors.") }
        let signature = try PowerAuthHeaderParameters.text(parameters["pa_signature"], field: "pa_signature", maxLength: 128)
        if version != .v30 {
            _ = try PowerAuthHeaderParameters.base64(signature, field: "pa_signature", count: 16 * factors.count, maxLength: 128)
        }
        self.activationID = try PowerAuthHeaderParameters.identifier(parameters["pa_activation_id"], field: "pa_activation_id")
        self.applicationKey = try PowerAuthHeaderParameters.applicationKey(parameters["pa_application_key"], field: "pa_application_key")
        self.nonce = try PowerAuthHeaderParameters.base64(parameters["pa_nonce"], field: "pa_nonce", count: 16, maxLength: 64)
        self.factors = factors
        self.signature = signature
        self.version = version.rawValue
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

    /// Reads a header value strictly (the syntax of ``PowerAuthAuthorizationHeader/init(parsing:)``):
    /// a known protocol version, a 16-byte application key, and an activation ID of 1 to 64
    /// printable ASCII characters when there is one.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedHeader` with a sentence saying what is wrong.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value, name: Self.name)
        self.version = try PowerAuthHeaderParameters.version(parameters["version"]).rawValue
        self.applicationKey = try PowerAuthHeaderParameters.applicationKey(parameters["application_key"], field: "application_key")
        self.activationID = try parameters["activation_id"].map { value throws(PowerAuthError) in
            try PowerAuthHeaderParameters.identifier(value, field: "activation_id")
        }
    }
}

