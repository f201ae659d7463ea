import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// The members of a provider's discovery document (`/.well-known/openid-configuration`) the
/// server uses.
struct ProviderMetadata: Sendable, Equatable, Decodable {
    var issuer: String
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var jwksUri: String
    var tokenEndpointAuthMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksUri = "jwks_uri"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }

    /// How the server authenticates at the token endpoint: `client_secret_basic` unless the
    /// provider lists only `client_secret_post` (RFC 8414: basic is the default).
    var usesSecretPost: Bool {
        guard let methods = tokenEndpointAuthMethodsSupported, !methods.isEmpty else { return false }
        return !methods.contains("client_secret_basic") && methods.contains("client_secret_post")
    }
}

/// Fetches and caches providers' discovery documents, as ``JWKSFetcher`` caches key sets: for the
/// answer's `Cache-Control: max-age` (one minute … one day; ten minutes without), at most one
/// attempt every 30 seconds per issuer after a failure; a stale document keeps serving while a
/// refetch fails.
actor ProviderDiscovery {
    /// Why a provider's metadata is unavailable; the message is for operators.
    struct Failure: Error, Sendable {
        let message: String
    }

    private struct Entry {
        var metadata: ProviderMetadata
        var expiresAt: Date
    }

    static let maximumBodySize = 64 * 1024

    private let clock: any ServerClock
    private let logger: Logger
    private var entries: [String: Entry] = [:]
    private var lastAttempt: [String: Date] = [:]

    init(clock: any ServerClock, logger: Logger) {
        self.clock = clock
        self.logger = logger
    }

    /// The metadata of `issuer`, whose document must name exactly that issuer.
    func metadata(issuer: String) async throws -> ProviderMetadata {
        let now = clock.now()
        if let entry = entries[issuer], now < entry.expiresAt { return entry.metadata }
        if let last = lastAttempt[issuer], now.timeIntervalSince(last) < JWKSFetcher.minimumRefetchInterval {
            if let cached = entries[issuer] { return cached.metadata }
            throw Failure(message: "the provider's discovery document could not be fetched; the next try is within 30 seconds")
        }
        lastAttempt[issuer] = now
        do {
            let (metadata, lifetime) = try await fetch(issuer)
            entries[issuer] = Entry(metadata: metadata, expiresAt: now.addingTimeInterval(lifetime))
            return metadata
        } catch let failure as Failure {
            logger.warning("Discovery fetch failed", metadata: ["issuer": "\(issuer)", "reason": "\(failure.message)"])
            if let cached = entries[issuer] { return cached.metadata }
            throw failure
        }
    }

    /// Forgets what is cached for `issuer` (its provider changed).
    func forget(issuer: String) {
        entries[issuer] = nil
        lastAttempt[issuer] = nil
    }

    private func fetch(_ issuer: String) async throws -> (ProviderMetadata, TimeInterval) {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let url = URL(string: base + "/.well-known/openid-configuration"), JWKSFetcher.isAllowed(url) else {
            throw Failure(message: "the issuer is not a URL the server may fetch")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await HTTPClient.shared.execute(request, timeout: JWKSFetcher.timeout)
            body = try await response.body.collect(upTo: Self.maximumBodySize)
        } catch {
            throw Failure(message: "the provider's discovery document could not be fetched")
        }
        guard response.status == .ok else {
            throw Failure(message: "the provider's discovery document answered HTTP \(response.status.code)")
        }
        guard let metadata = try? JSONDecoder().decode(ProviderMetadata.self, from: Data(buffer: body)) else {
            throw Failure(message: "the provider's discovery document is not valid")
        }
        guard metadata.issuer == issuer else {
            throw Failure(message: "the provider's discovery document names another issuer (\(metadata.issuer))")
        }
        for endpoint in [metadata.authorizationEndpoint, metadata.tokenEndpoint, metadata.jwksUri] {
            guard let endpointURL = URL(string: endpoint), JWKSFetcher.isAllowed(endpointURL) else {
                throw Failure(message: "the provider's discovery document has an endpoint the server may not use")
            }
        }
        return (metadata, JWKSFetcher.lifetime(cacheControl: response.headers.first(name: "Cache-Control")))
    }
}
