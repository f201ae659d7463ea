import Foundation
import KeywayPowerAuth

/// The three `X-PowerAuth-…` headers as this server reads them: `KeywayPowerAuth`'s one strict
/// parser (the device SDK and the backend kit read them with it too), then the versions this
/// server speaks. A header that cannot be read is a ``PowerAuthFailure/invalidRequest(_:)`` with
/// the parser's sentence.
enum PowerAuthRequestHeader {
    /// `X-PowerAuth-Authorization`, of version 3.2 or 3.3.
    static func authorization(_ text: String?) throws(PowerAuthFailure) -> PowerAuthAuthorizationHeader {
        let header = try read(text, name: PowerAuthAuthorizationHeader.name) { text throws(PowerAuthError) in
            try PowerAuthAuthorizationHeader(parsing: text)
        }
        _ = try PowerAuthProtocol.version(header.version)
        return header
    }

    /// `X-PowerAuth-Encryption`, of version 3.2 or 3.3.
    static func encryption(_ text: String?) throws(PowerAuthFailure) -> PowerAuthEncryptionHeader {
        let header = try read(text, name: PowerAuthEncryptionHeader.name) { text throws(PowerAuthError) in
            try PowerAuthEncryptionHeader(parsing: text)
        }
        _ = try PowerAuthProtocol.version(header.version)
        return header
    }

    /// `X-PowerAuth-Token`, of version 3.2 or 3.3.
    static func token(_ text: String?) throws(PowerAuthFailure) -> PowerAuthTokenHeader {
        let header = try read(text, name: PowerAuthTokenHeader.name) { text throws(PowerAuthError) in
            try PowerAuthTokenHeader(parsing: text)
        }
        _ = try PowerAuthProtocol.version(header.version)
        return header
    }

    private static func read<Header>(
        _ text: String?, name: String, _ parse: (String) throws(PowerAuthError) -> Header
    ) throws(PowerAuthFailure) -> Header {
        guard let text else { throw .invalidRequest("The \(name) header is required.") }
        do {
            return try parse(text)
        } catch {
            throw .invalidRequest(error.description)
        }
    }
}

/// The values of PowerAuth request bodies, read strictly: a malformed one is a
/// ``PowerAuthFailure/invalidRequest(_:)``, never a crash.
enum PowerAuthField {
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

/// What the server speaks of the protocol.
enum PowerAuthProtocol {
    /// The version of what the server originates (temporary keys, its own envelopes).
    static let version = PowerAuthVersion.v33
    /// The look-ahead window of the hash-based counter.
    static let lookAhead = 20

    /// The versions a device's request may be in: 3.3, and 3.2 (the 1.7 and 1.8 mobile SDKs,
    /// whose envelopes are sealed to the application's master key or the activation's server key
    /// instead of a temporary key). Signatures are computed alike in both.
    static let accepted: Set<PowerAuthVersion> = [.v32, .v33]

    static func version(_ text: String?) throws(PowerAuthFailure) -> PowerAuthVersion {
        guard let text else { throw .invalidRequest("The protocol version is required.") }
        guard let version = PowerAuthVersion(rawValue: text), accepted.contains(version) else {
            throw .invalidRequest("Protocol version \(text.prefix(16)) is not supported: this server speaks 3.3 and 3.2.")
        }
        return version
    }

    /// An application key: the Base64 of 16 bytes.
    static func applicationKey(_ text: String?) throws(PowerAuthFailure) -> String {
        _ = try PowerAuthField.base64(text, field: "application key", count: [16], maxLength: 64)
        return text ?? ""
    }
}
