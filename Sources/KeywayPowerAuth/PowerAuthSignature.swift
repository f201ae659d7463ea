import Crypto
import Foundation

/// The factors a PowerAuth signature proves. Keys always chain in the order possession, knowledge,
/// biometry.
public struct PowerAuthSignatureFactors: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw bits.
    public let rawValue: UInt8

    /// Builds factors from raw bits.
    ///
    /// - Parameter rawValue: Bit 0 possession, bit 1 knowledge, bit 2 biometry.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0b111
    }

    /// The possession factor (`KEY_SIGNATURE_POSSESSION`).
    public static let possession = PowerAuthSignatureFactors(rawValue: 1)
    /// The knowledge factor (`KEY_SIGNATURE_KNOWLEDGE`).
    public static let knowledge = PowerAuthSignatureFactors(rawValue: 2)
    /// The biometry factor (`KEY_SIGNATURE_BIOMETRY`).
    public static let biometry = PowerAuthSignatureFactors(rawValue: 4)

    /// Reads a `pa_signature_type` value such as `possession_knowledge`.
    ///
    /// - Parameter typeName: The factor names joined by `_`, in the protocol's order.
    public init?(typeName: String) {
        var factors: PowerAuthSignatureFactors = []
        var last = 0
        for name in typeName.split(separator: "_", omittingEmptySubsequences: false) {
            let factor: PowerAuthSignatureFactors
            switch name {
            case "possession": factor = .possession
            case "knowledge": factor = .knowledge
            case "biometry": factor = .biometry
            default: return nil
            }
            guard factor.rawValue > last else { return nil }
            last = Int(factor.rawValue)
            factors.insert(factor)
        }
        self = factors
    }

    /// The `pa_signature_type` value, for example `possession_knowledge`.
    public var typeName: String {
        var names: [String] = []
        if contains(.possession) { names.append("possession") }
        if contains(.knowledge) { names.append("knowledge") }
        if contains(.biometry) { names.append("biometry") }
        return names.joined(separator: "_")
    }

    /// The `pa_signature_type` value.
    public var description: String { typeName }

    /// The number of factors.
    public var count: Int { rawValue.nonzeroBitCount }
}

/// How a signature's components are written.
public enum PowerAuthSignatureFormat: Sendable, Hashable {
    /// Decimal components joined by `-`: protocol 3.0 online signatures use eight digits, offline
    /// signatures four to eight.
    case decimal(digits: Int)
    /// The last 16 bytes of every component, concatenated, in Base64 (protocol 3.1 and later).
    case base64

    /// Protocol version 3.0's online format (eight-digit components).
    public static let v3 = PowerAuthSignatureFormat.decimal(digits: 8)
    /// Protocol version 3.1's (and later) online format.
    public static let v31 = PowerAuthSignatureFormat.base64
}

/// The hash-based signature counter `CTR_DATA` (protocol 3).
public enum PowerAuthHashCounter {
    /// The counter's next value: SHA-256 of the current one, its halves XORed.
    ///
    /// - Parameter counterData: The current 16-byte value.
    /// - Returns: The next 16-byte value.
    public static func next<D: DataProtocol>(_ counterData: D) -> Data {
        Bytes.fold(Array(SHA256.hash(data: counterData)))
    }

    /// A new random 16-byte counter value.
    ///
    /// - Returns: 16 bytes from the system's secure generator.
    public static func random() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// A signature a server accepted, and where in its look-ahead window.
public struct PowerAuthSignatureMatch: Sendable, Hashable {
    /// How many steps ahead of the server's counter the client was (0 = in step).
    public let counterOffset: Int
    /// The counter value the signature was made with.
    public let matchedCounterData: Data
    /// The value the server keeps for the next signature (the one after the matched value).
    public let nextCounterData: Data
}

/// Online (HTTP request) and offline PowerAuth signatures, protocol 3.
public enum PowerAuthSignature {
    /// The normalized request data: `METHOD&Base64(uriIdentifier)&nonce&Base64(body)`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method (written in upper case).
    ///   - uriIdentifier: The URI identifier, for example `/pa/signature/validate`.
    ///   - nonce: The 16-byte nonce.
    ///   - body: The request body, or the canonical query string of a request without one (see
    ///     ``canonicalQuery(_:)``).
    /// - Returns: The `REQUEST_DATA` string.
    public static func requestData<Body: DataProtocol>(
        method: String, uriIdentifier: String, nonce: Data, body: Body
    ) -> String {
        [
            method.uppercased(),
            Data(uriIdentifier.utf8).base64EncodedString(),
            nonce.base64EncodedString(),
            Data(body).base64EncodedString(),
        ].joined(separator: "&")
    }

    /// The data an online signature signs: `REQUEST_DATA&APPLICATION_SECRET`, in UTF-8.
    ///
    /// - Parameters:
    ///   - requestData: The normalized request data (``requestData(method:uriIdentifier:nonce:body:)``).
    ///   - applicationSecret: The application secret as its Base64 text.
    /// - Returns: The bytes to sign.
    public static func signedData(requestData: String, applicationSecret: String) -> Data {
        Data((requestData + "&" + applicationSecret).utf8)
    }

    /// The data an offline signature signs: method `POST`, application secret `offline`.
    ///
    /// - Parameters:
    ///   - uriIdentifier: The URI identifier, `/operation/authorize/offline` by recommendation.
    ///   - nonce: The 16-byte nonce.
    ///   - data: The operation data.
    /// - Returns: The bytes to sign.
    public static func offlineSignedData<Body: DataProtocol>(uriIdentifier: String, nonce: Data, data: Body) -> Data {
        signedData(
            requestData: requestData(method: "POST", uriIdentifier: uriIdentifier, nonce: nonce, body: data),
            applicationSecret: "offline"
        )
    }

    /// The signature's binary components (32 bytes each, one per key). Component `i` is
    /// `HMAC(KEY_DERIVED_i, data)` where `KEY_DERIVED_i` starts as `HMAC(keys[i], CTR_DATA)` and is
    /// then chained with `HMAC(HMAC(keys[j+1], CTR_DATA), KEY_DERIVED)` for `j < i`, as the
    /// reference implementation does.
    ///
    /// - Parameters:
    ///   - data: The signed data.
    ///   - keys: One to three 16-byte signature keys, in the order possession, knowledge, biometry.
    ///   - counterData: `CTR_DATA`, 16 bytes.
    /// - Returns: One 32-byte component per key.
    /// - Throws: `PowerAuthError.invalidLength` for a counter not 16 bytes or a key count outside 1–3.
    public static func components<D: DataProtocol>(
        data: D, keys: [SymmetricKey], counterData: Data
    ) throws(PowerAuthError) -> [Data] {
        try Bytes.require(counterData, count: 16, field: "counter data")
        guard (1...3).contains(keys.count) else {
            throw .invalidLength(field: "signature keys", expected: "1 to 3", actual: keys.count)
        }
        return (0..<keys.count).map { index in
            var derived = Data(HMAC<SHA256>.authenticationCode(for: counterData, using: keys[index]))
            for inner in 0..<index {
                let current = Data(HMAC<SHA256>.authenticationCode(for: counterData, using: keys[inner + 1]))
                derived = Data(HMAC<SHA256>.authenticationCode(for: derived, using: SymmetricKey(data: current)))
            }
            return Data(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: derived)))
        }
    }

    /// Computes a signature.
    ///
    /// - Parameters:
    ///   - data: The signed data (``signedData(requestData:applicationSecret:)``).
    ///   - keys: One to three signature keys in factor order (see
    ///     ``PowerAuthDerivedKeys/signatureKeys(for:)``).
    ///   - counterData: `CTR_DATA`, 16 bytes.
    ///   - format: ``PowerAuthSignatureFormat/v3``, ``PowerAuthSignatureFormat/v31`` or an offline
    ///     decimal length.
    /// - Returns: The signature text.
    /// - Throws: `PowerAuthError.invalidLength` for bad inputs, `.malformedSignature` for a decimal
    ///   length outside 4–8.
    public static func compute<D: DataProtocol>(
        data: D, keys: [SymmetricKey], counterData: Data, format: PowerAuthSignatureFormat
    ) throws(PowerAuthError) -> String {
        let parts = try components(data: data, keys: keys, counterData: counterData)
        switch format {
        case let .decimal(digits):
            guard (4...8).contains(digits) else { throw .malformedSignature("decimal components have 4 to 8 digits") }
            return parts.map { Decimalization.digits(Array($0), length: digits) }.joined(separator: "-")
        case .base64:
            return parts.reduce(into: Data()) { $0.append($1.suffix(16)) }.base64EncodedString()
        }
    }

    /// Verifies a signature as a server does, trying the counter values of its look-ahead window
    /// `[CTR_DATA, next(CTR_DATA), …)` in turn. Comparisons run in constant time.
    ///
    /// - Parameters:
    ///   - signature: The signature the client sent.
    ///   - data: The signed data.
    ///   - keys: The signature keys of the claimed factors, in factor order.
    ///   - counterData: The server's current `CTR_DATA`.
    ///   - lookAhead: How many counter values to try (`CTR_LOOK_AHEAD`, 20 by default).
    ///   - format: The format the client's protocol version uses.
    /// - Returns: Where the signature matched, or `nil` when it matches none of the values.
    /// - Throws: `PowerAuthError.invalidLength` for bad keys or counter.
    public static func verify<D: DataProtocol>(
        signature: String, data: D, keys: [SymmetricKey], counterData: Data, lookAhead: Int = 20,
        format: PowerAuthSignatureFormat
    ) throws(PowerAuthError) -> PowerAuthSignatureMatch? {
        var current = counterData
        for offset in 0..<max(lookAhead, 1) {
            let expected = try compute(data: data, keys: keys, counterData: current, format: format)
            let next = PowerAuthHashCounter.next(current)
            if ConstantTimeBytes.equals(Array(expected.utf8), Array(signature.utf8)) {
                return PowerAuthSignatureMatch(counterOffset: offset, matchedCounterData: current, nextCounterData: next)
            }
            current = next
        }
        return nil
    }
}

/// Constant-time comparison of byte strings.
enum ConstantTimeBytes {
    static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
