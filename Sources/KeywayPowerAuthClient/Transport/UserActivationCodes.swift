import Foundation
import KeywayProtocol
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a new activation code is made (`POST /v1/user/activations`).
public struct ActivationCodeRequest: Sendable, Equatable, Encodable {
    /// How the new activation becomes active.
    public enum Commit: String, Sendable, Equatable, Encodable {
        /// At the key exchange.
        case automatic
        /// When an administrator commits it.
        case confirm
    }

    /// The application (default: the access token's).
    public var configID: String?
    /// Seconds the code stays valid, 60 to 604 800 (the server's default: 600).
    public var expiresIn: Int?
    /// An OTP the other device must give with the code (4 to 64 characters).
    public var otp: String?
    /// How the activation becomes active.
    public var commit: Commit?
    /// The name of the new activation.
    public var name: String?

    /// Builds a request.
    ///
    /// - Parameters:
    ///   - configID: The application, or `nil` for the token's.
    ///   - expiresIn: The code's lifetime in seconds, or `nil` for the server's default.
    ///   - otp: The OTP, or `nil`.
    ///   - commit: The commit mode, or `nil` for `automatic`.
    ///   - name: The activation's name, or `nil`.
    public init(configID: String? = nil, expiresIn: Int? = nil, otp: String? = nil, commit: Commit? = nil, name: String? = nil) {
        self.configID = configID
        self.expiresIn = expiresIn
        self.otp = otp
        self.commit = commit
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case configID = "configId", expiresIn, otp, commit, name
    }
}

/// An activation code made for the signed-in user.
public struct UserActivationCode: Sendable, Equatable, Decodable {
    /// The activation's ID.
    public let activationID: String
    /// The code to type, `AAAAA-BBBBB-CCCCC-DDDDD`.
    public let activationCode: String
    /// The master server key's signature of the code (Base64 DER).
    public let activationSignature: String
    /// The text of the QR code to show, `CODE#SIGNATURE`.
    public let qrPayload: String
    /// The activation's state (`CREATED`).
    public let status: String
    /// When the code expires (RFC 3339).
    public let expiresAt: String

    enum CodingKeys: String, CodingKey {
        case activationID = "activationId", activationCode, activationSignature, qrPayload, status, expiresAt
    }
}

/// The signed-in user's own activation codes: a device where the user is signed in to Keyway
/// makes a code for another device.
public struct UserActivationCodes: Sendable {
    let keyway: KeywayClient

    /// The codes of the user signed in to `keyway`'s server.
    ///
    /// - Parameter keyway: The client (its server, transport and DPoP key).
    public init(keyway: KeywayClient) {
        self.keyway = keyway
    }

    /// Makes an activation code for another device of a signed-in account of the client's
    /// ``KeywayClient/session``, with the account's access token.
    ///
    /// - Parameters:
    ///   - request: The code's settings.
    ///   - account: The account; `nil` for the current one.
    /// - Returns: The code, its signature and its QR text.
    /// - Throws: ``SessionError`` (``SessionError/noAccessTokenPresent`` when nobody is signed
    ///   in), or ``KeywayError``: `problem` (the server's refusal), `oauth` (a rejected token),
    ///   `networkFailure`, `invalidResponse`.
    public func create(_ request: ActivationCodeRequest, account: String? = nil) async throws -> UserActivationCode {
        guard let accessToken = try await keyway.session.accessToken(account: account, throwIfMissing: true) else {
            throw SessionError.noAccessTokenPresent
        }
        return try await create(request, accessToken: accessToken)
    }

    /// Makes an activation code with a given access token of the user.
    package func create(_ request: ActivationCodeRequest, accessToken: Sensitive<String>) async throws -> UserActivationCode {
        let url = keyway.server.appending(path: "/v1/user/activations")
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        let authorized = try await keyway.authorizedRequest(urlRequest, accessToken: accessToken)
        var headers = authorized.allHTTPHeaderFields ?? [:]
        headers["Content-Type"] = "application/json"
        headers["Accept"] = "application/json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(request)
        let response: TransportResponse
        do {
            response = try await keyway.options.transport.send(TransportRequest(method: "POST", url: url, headers: headers, body: body))
        } catch let error as KeywayError {
            throw error
        } catch {
            throw KeywayError.networkFailure(String(describing: error))
        }
        guard response.status == 201 || response.status == 200 else {
            if let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body) {
                throw KeywayError.problem(problem)
            }
            throw KeywayError.invalidResponse("The server answered HTTP \(response.status) to the activation code request.")
        }
        do {
            return try JSONDecoder().decode(UserActivationCode.self, from: response.body)
        } catch {
            throw KeywayError.invalidResponse("The activation code answer is not the JSON the contract describes.")
        }
    }
}
