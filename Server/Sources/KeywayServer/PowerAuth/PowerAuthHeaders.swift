import Foundation
import KeywayPowerAuth

/// The `key="value"` parameters of a `PowerAuth …` header, read strictly: a malformed header is a
/// ``PowerAuthFailure/invalidRequest(_:)``, never a crash.
enum PowerAuthHeaderParameters {
    /// The longest header read.
    static let maxLength = 4096

    static func parse(_ header: String, name: String) throws(PowerAuthFailure) -> [String: String] {
        guard header.utf8.count <= maxLength else { throw .invalidRequest("The \(name) header is too long.") }
        let scalars = Array(header.unicodeScalars)
        var index = 0
        func skip(_ predicate: (Unicode.Scalar) -> Bool) {
            while index < scalars.count, predicate(scalars[index]) { index += 1 }
        }
        skip { $0 == " " || $0 == "\t" }
        let prefix = "PowerAuth"
        guard scalars.count >= index + prefix.unicodeScalars.count,
            String(String.UnicodeScalarView(scalars[index..<(index + prefix.unicodeScalars.count)])) == prefix
        else { throw .invalidRequest("The \(name) header starts with PowerAuth.") }
        index += prefix.unicodeScalars.count
        var parameters: [String: String] = [:]
        while true {
            skip { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\n" || $0 == "\r" }
            if index >= scalars.count { break }
            let keyStart = index
            skip { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || $0 == "_" }
            let key = String(String.UnicodeScalarView(scalars[keyStart..<index]))
            guard !key.isEmpty, index + 1 < scalars.count, scalars[index] == "=", scalars[index + 1] == "\"" else {
                throw .invalidRequest("The \(name) header is a list of key=\"value\" parameters.")
            }
            index += 2
            let valueStart = index
            skip { $0 != "\"" }
            guard index < scalars.count else { throw .invalidRequest("A value of the \(name) header is not closed.") }
            let value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
            index += 1
            guard parameters[key] == nil else { throw .invalidRequest("The \(name) header repeats \(key).") }
            parameters[key] = value
        }
        return parameters
    }

    /// Strict standard Base64 of an exact length (any length when `count` is `nil`).
    static func base64(_ text: String?, field: String, count: Set<Int>? = nil, maxLength: Int = 65_536)
        throws(PowerAuthFailure) -> Data
    {
        guard let text, !text.isEmpty else { throw .invalidRequest("\(field) is required.") }
        guard text.utf8.count <= maxLength, let data = Data(base64Encoded: text) else {
            throw .invalidRequest("\(field) is not valid Base64.")
        }
        if let count, !count.contains(data.count) {
            throw .invalidRequest("\(field) has \(data.count) bytes, not \(count.sorted().map(String.init).joined(separator: " or ")).")
        }
        return data
    }

    /// An identifier: 1 to 64 printable ASCII characters.
    static func identifier(_ text: String?, field: String) throws(PowerAuthFailure) -> String {
        guard let text, !text.isEmpty else { throw .invalidRequest("\(field) is required.") }
        guard text.utf8.count <= 64, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidRequest("\(field) is not a valid identifier.")
        }
        return text
    }
}

/// `X-PowerAuth-Encryption: PowerAuth version="3.3", application_key="…"[, activation_id="…"]`.
struct PowerAuthEncryptionHeader: Sendable, Equatable {
    static let name = "X-PowerAuth-Encryption"

    let version: PowerAuthVersion
    let applicationKey: String
    let activationId: String?

    init(_ header: String?) throws(PowerAuthFailure) {
        guard let header else { throw .invalidRequest("The \(Self.name) header is required.") }
        let parameters = try PowerAuthHeaderParameters.parse(header, name: Self.name)
        version = try PowerAuthProtocol.version(parameters["version"])
        applicationKey = try PowerAuthProtocol.applicationKey(parameters["application_key"])
        activationId = try parameters["activation_id"].map { value throws(PowerAuthFailure) in
            try PowerAuthHeaderParameters.identifier(value, field: "activation_id")
        }
    }
}

/// `X-PowerAuth-Authorization: PowerAuth pa_activation_id="…", pa_application_key="…",
/// pa_nonce="…", pa_signature_type="…", pa_signature="…", pa_version="3.3"`.
struct PowerAuthAuthorizationHeader: Sendable, Equatable {
    static let name = "X-PowerAuth-Authorization"

    let activationId: String
    let applicationKey: String
    let nonce: Data
    let factors: PowerAuthSignatureFactors
    let signature: String
    let version: PowerAuthVersion

    init(_ header: String?) throws(PowerAuthFailure) {
        guard let header else { throw .invalidRequest("The \(Self.name) header is required.") }
        let parameters = try PowerAuthHeaderParameters.parse(header, name: Self.name)
        version = try PowerAuthProtocol.version(parameters["pa_version"])
        activationId = try PowerAuthHeaderParameters.identifier(parameters["pa_activation_id"], field: "pa_activation_id")
        applicationKey = try PowerAuthProtocol.applicationKey(parameters["pa_application_key"])
        nonce = try PowerAuthHeaderParameters.base64(parameters["pa_nonce"], field: "pa_nonce", count: [16], maxLength: 64)
        guard let typeName = parameters["pa_signature_type"], typeName.utf8.count <= 64,
            let factors = PowerAuthSignatureFactors(typeName: typeName.lowercased()), factors.count > 0
        else { throw .invalidRequest("pa_signature_type is not a known combination of factors.") }
        self.factors = factors
        // 3.1+ signatures: 16 bytes per factor, in Base64.
        _ = try PowerAuthHeaderParameters.base64(
            parameters["pa_signature"], field: "pa_signature", count: [16 * factors.count], maxLength: 128)
        signature = parameters["pa_signature"] ?? ""
    }
}

/// What the server speaks of the protocol.
enum PowerAuthProtocol {
    /// The version of what the server originates (temporary keys, its own envelopes).
    static let version = PowerAuthVersion.v33
    /// The versions a device's request may be in: 3.3, and 3.2 (the 1.7 and 1.8 mobile SDKs,
    /// whose envelopes are sealed to the application's master key or the activation's server key
    /// instead of a temporary key). Signatures are computed alike in both.
    /// The look-ahead window of the hash-based counter.
    static let lookAhead = 20

    static let accepted: Set<PowerAuthVersion> = [.v32, .v33]

    static func version(_ text: String?) throws(PowerAuthFailure) -> PowerAuthVersion {
        guard let text else { throw .invalidRequest("The protocol version is required.") }
        guard let version = PowerAuthVersion(rawValue: text), accepted.contains(version) else {
            throw .invalidRequest("Protocol version \(text.prefix(16)) is not supported: this server speaks 3.3 and 3.2.")
        }
        return version
    }

    static func applicationKey(_ text: String?) throws(PowerAuthFailure) -> String {
        _ = try PowerAuthHeaderParameters.base64(text, field: "application key", count: [16], maxLength: 64)
        return text ?? ""
    }
}
