import Crypto
import Foundation

/// How ``URLSessionTransport`` judges the server's TLS certificate.
///
/// - ``system``, the default: the operating system's evaluation (the chain to a trusted root,
///   the host name, expiry and revocation as the platform checks them). Right for nearly every
///   app.
/// - ``publicKeyPinning(sha256:)``: the system's evaluation first, and then at least one
///   certificate of the validated chain must carry a pinned public key. Implemented on Apple
///   platforms only (see the risks below).
///
/// Pinning's risks: a pin that no longer matches (a rotated key, a new certificate authority,
/// a TLS-terminating proxy or CDN placed in front of the server) makes every request fail until
/// the app is updated — pin at least two keys (the current one and a backup key kept offline,
/// or the issuing CA's key), plan the rotation before the certificates expire, and keep a way
/// to ship new pins. Pinning also defeats corporate TLS inspection on purpose, and debugging
/// proxies.
///
/// On Linux (FoundationNetworking over libcurl) `URLSession` hands the app no server-trust
/// challenge, so the transport cannot see the certificate chain: pinning cannot be enforced
/// there. A transport with pins refuses every request on Linux
/// (``KeywayError/invalidConfiguration(_:)``) instead of silently not pinning; the system's
/// evaluation (libcurl with the system's CA bundle) is what Linux offers.
public struct ServerTrustPolicy: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case system
        case publicKeyPins(Set<Data>)
    }

    let kind: Kind

    /// The operating system's evaluation.
    public static let system = ServerTrustPolicy(kind: .system)

    /// The system's evaluation, then public-key pinning: the SHA-256 of a certificate's
    /// `SubjectPublicKeyInfo` (DER), in standard Base64, as
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`
    /// prints it. Keys of the types P-256, P-384 and RSA 2048, 3072 and 4096 are recognised.
    ///
    /// - Parameter sha256: The pins (give at least two: the current key and a backup).
    /// - Returns: The policy.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for no pins, or a pin that is not the
    ///   Base64 of 32 bytes.
    public static func publicKeyPinning(sha256: [String]) throws(KeywayError) -> ServerTrustPolicy {
        guard !sha256.isEmpty else { throw .invalidConfiguration("Public-key pinning needs at least one pin.") }
        var pins = Set<Data>()
        for pin in sha256 {
            guard let data = Data(base64Encoded: pin.trimmingCharacters(in: .whitespaces)), data.count == 32 else {
                throw .invalidConfiguration("The pin \"\(pin)\" is not the Base64 of a SHA-256 digest (32 bytes).")
            }
            pins.insert(data)
        }
        return ServerTrustPolicy(kind: .publicKeyPins(pins))
    }

    /// Whether this platform can enforce the policy (pinning: Apple platforms only).
    public var isEnforceable: Bool {
        switch kind {
        case .system: true
        case .publicKeyPins: ServerTrustEvaluation.canPin
        }
    }

    /// The pin of a `SubjectPublicKeyInfo` (DER): the Base64 of its SHA-256.
    ///
    /// - Parameter subjectPublicKeyInfo: The DER bytes.
    /// - Returns: The pin.
    public static func pin(subjectPublicKeyInfo: Data) -> String {
        Data(SHA256.hash(data: subjectPublicKeyInfo)).base64EncodedString()
    }
}

/// `SubjectPublicKeyInfo` from a key's raw bytes as Apple's `SecKeyCopyExternalRepresentation`
/// gives them (an EC key's X9.63 point, an RSA key's PKCS #1 `RSAPublicKey`): the fixed DER
/// prefix of its algorithm and size, then the bytes.
enum SubjectPublicKeyInfo {
    /// The key types the prefixes cover.
    enum KeyType: Sendable {
        case ec
        case rsa
    }

    private static let prefixes: [String: [UInt8]] = [
        "ec256": [0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
                  0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00],
        "ec384": [0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x05, 0x2B, 0x81, 0x04,
                  0x00, 0x22, 0x03, 0x62, 0x00],
        "rsa2048": [0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01,
                    0x05, 0x00, 0x03, 0x82, 0x01, 0x0F, 0x00],
        "rsa3072": [0x30, 0x82, 0x01, 0xA2, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01,
                    0x05, 0x00, 0x03, 0x82, 0x01, 0x8F, 0x00],
        "rsa4096": [0x30, 0x82, 0x02, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01,
                    0x05, 0x00, 0x03, 0x82, 0x02, 0x0F, 0x00],
    ]

    /// The DER `SubjectPublicKeyInfo`, or `nil` for a type or size without a prefix here.
    static func der(type: KeyType, bits: Int, raw: Data) -> Data? {
        let name = (type == .ec ? "ec" : "rsa") + String(bits)
        guard let prefix = prefixes[name] else { return nil }
        return Data(prefix) + raw
    }
}

#if canImport(Security) && !canImport(FoundationNetworking)
    import Security

    /// Pinning on Apple platforms, behind ``ServerTrustPolicy``: the system's evaluation with an
    /// SSL policy for the host, then a pinned key among the validated chain's certificates.
    enum ServerTrustEvaluation {
        static let canPin = true

        /// Whether `trust` passes the system's evaluation for `host` and a certificate of its
        /// chain has a pinned public key.
        static func evaluate(_ trust: SecTrust, host: String, pins: Set<Data>) -> Bool {
            // The system's evaluation first: a pin never replaces chain and host-name checks.
            guard SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString)) == errSecSuccess else { return false }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else { return false }
            guard let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] else { return false }
            for certificate in chain {
                guard let key = SecCertificateCopyKey(certificate), let spki = subjectPublicKeyInfo(of: key) else { continue }
                if pins.contains(Data(SHA256.hash(data: spki))) { return true }
            }
            return false
        }

        /// The DER `SubjectPublicKeyInfo` of a public key.
        static func subjectPublicKeyInfo(of key: SecKey) -> Data? {
            guard let attributes = SecKeyCopyAttributes(key) as? [String: Any],
                  let typeName = attributes[kSecAttrKeyType as String] as? String,
                  let bits = attributes[kSecAttrKeySizeInBits as String] as? Int,
                  let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?
            else { return nil }
            let type: SubjectPublicKeyInfo.KeyType
            if typeName == (kSecAttrKeyTypeECSECPrimeRandom as String) {
                type = .ec
            } else if typeName == (kSecAttrKeyTypeRSA as String) {
                type = .rsa
            } else {
                return nil
            }
            return SubjectPublicKeyInfo.der(type: type, bits: bits, raw: raw)
        }
    }
#else
    /// Linux: no server-trust challenge reaches the app, so pinning cannot be enforced.
    enum ServerTrustEvaluation {
        static let canPin = false
    }
#endif
