import Crypto
import Foundation

/// What a device needs to activate against a Keyway application: the server's base URL and the
/// application's PowerAuth credentials, as the admin API shows them
/// (`GET /admin/applications/{configId}/powerauth`).
///
/// ```swift
/// let configuration = try PowerAuthConfiguration(baseURL: url, json: Data(contentsOf: file))
/// ```
public struct PowerAuthConfiguration: Sendable, Equatable {
    /// The server's root (the `/pa/v3/…` endpoints are below it; a final `/v1` is dropped).
    public let baseURL: URL
    /// The application's config ID.
    public let configID: String
    /// `APPLICATION_KEY`, standard Base64.
    public let applicationKey: String
    /// `APPLICATION_SECRET`, standard Base64.
    public let applicationSecret: String
    /// `KEY_SERVER_MASTER_PUBLIC`: standard Base64 of the X9.62 point.
    public let masterServerPublicKey: String
    /// The failed attempts that block an activation, when the JSON says it (informational).
    public let maxFailedAttempts: Int?
    /// Whether activations get a recovery code, when the JSON says it (informational).
    public let recoveryEnabled: Bool?

    /// The master server public key as a P-256 verification key.
    let masterSigningKey: P256.Signing.PublicKey
    /// The server's root, normalized.
    let server: ServerURL

    /// Builds a configuration from its values.
    ///
    /// - Parameters:
    ///   - baseURL: The Keyway server's URL (its root, or its `/v1` URL).
    ///   - configID: The application's config ID.
    ///   - applicationKey: The application key (standard Base64).
    ///   - applicationSecret: The application secret (standard Base64).
    ///   - masterServerPublicKey: The master server public key (standard Base64 of the
    ///     uncompressed or compressed point).
    ///   - maxFailedAttempts: The application's attempt limit, if known.
    ///   - recoveryEnabled: Whether recovery codes are on, if known.
    /// - Throws: ``ActivationError/invalidConfiguration(_:)`` for a base URL that is not http(s),
    ///   values that are not Base64, or a key that is not a P-256 point.
    public init(
        baseURL: URL, configID: String, applicationKey: String, applicationSecret: String, masterServerPublicKey: String,
        maxFailedAttempts: Int? = nil, recoveryEnabled: Bool? = nil
    ) throws(ActivationError) {
        do {
            server = try ServerURL(baseURL)
        } catch {
            throw .invalidConfiguration("The server URL must be an http or https URL without a query.")
        }
        guard !configID.isEmpty else { throw .invalidConfiguration("The configuration has no configId.") }
        guard let key = Data(base64Encoded: applicationKey), !key.isEmpty else {
            throw .invalidConfiguration("applicationKey is not standard Base64.")
        }
        guard let secret = Data(base64Encoded: applicationSecret), !secret.isEmpty else {
            throw .invalidConfiguration("applicationSecret is not standard Base64.")
        }
        guard let master = Data(base64Encoded: masterServerPublicKey),
              let signingKey = try? ActivationSignature.publicKey(master)
        else { throw .invalidConfiguration("masterServerPublicKey is not a Base64 P-256 public key.") }
        self.baseURL = server.root
        self.configID = configID
        self.applicationKey = applicationKey
        self.applicationSecret = applicationSecret
        self.masterServerPublicKey = masterServerPublicKey
        self.maxFailedAttempts = maxFailedAttempts
        self.recoveryEnabled = recoveryEnabled
        self.masterSigningKey = signingKey
    }

    /// Reads the admin API's JSON object (`configId`, `applicationKey`, `applicationSecret`,
    /// `masterServerPublicKey`, and optionally `maxFailedAttempts`, `recoveryEnabled`; other keys
    /// are ignored).
    ///
    /// - Parameters:
    ///   - baseURL: The Keyway server's URL.
    ///   - json: The JSON object.
    /// - Throws: ``ActivationError/invalidConfiguration(_:)`` naming what is missing or malformed.
    public init(baseURL: URL, json: Data) throws(ActivationError) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidConfiguration("The PowerAuth configuration has no \(key.stringValue).")
        } catch {
            throw .invalidConfiguration("The PowerAuth configuration is not the JSON object the admin API shows.")
        }
        try self.init(
            baseURL: baseURL, configID: document.configId, applicationKey: document.applicationKey,
            applicationSecret: document.applicationSecret, masterServerPublicKey: document.masterServerPublicKey,
            maxFailedAttempts: document.maxFailedAttempts, recoveryEnabled: document.recoveryEnabled)
    }

    /// `/pa/v3/…` and `/v1/…` below the root.
    func url(_ path: String) -> URL { server.appending(path: path) }

    /// Whether two configurations hold the same values.
    public static func == (lhs: PowerAuthConfiguration, rhs: PowerAuthConfiguration) -> Bool {
        lhs.baseURL == rhs.baseURL && lhs.configID == rhs.configID && lhs.applicationKey == rhs.applicationKey
            && lhs.applicationSecret == rhs.applicationSecret && lhs.masterServerPublicKey == rhs.masterServerPublicKey
            && lhs.maxFailedAttempts == rhs.maxFailedAttempts && lhs.recoveryEnabled == rhs.recoveryEnabled
    }

    private struct Document: Decodable {
        let configId: String
        let applicationKey: String
        let applicationSecret: String
        let masterServerPublicKey: String
        let maxFailedAttempts: Int?
        let recoveryEnabled: Bool?
    }
}
