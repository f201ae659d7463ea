import AsyncHTTPClient
import Foundation
import KeywayProtocol
import NIOCore

/// The Keyway server's discovery document and key set, fetched once and kept. A token naming a
/// `kid` the cached set lacks (the server rotated its key) triggers one refetch, at most every
/// `minimumRefetchInterval`, so made-up `kid`s cannot make the backend hammer the server.
actor KeySetCache {
    private let issuer: String
    private let httpClient: HTTPClient
    private let clock: @Sendable () -> Date
    private let minimumRefetchInterval: TimeInterval
    private var discovery: DiscoveryDocument?
    private var keys: [JSONWebKey] = []
    private var lastFetch: Date?
    /// How many times the key set was fetched (for tests and metrics).
    private(set) var fetchCount = 0

    static let maximumBodySize = 512 * 1024
    static let timeout: TimeAmount = .seconds(5)

    init(issuer: String, httpClient: HTTPClient, clock: @escaping @Sendable () -> Date, minimumRefetchInterval: TimeInterval)
    {
        self.issuer = issuer
        self.httpClient = httpClient
        self.clock = clock
        self.minimumRefetchInterval = minimumRefetchInterval
    }

    /// The server's metadata, fetched on first use; its `issuer` must be the configured one.
    func metadata() async throws -> DiscoveryDocument {
        if let discovery { return discovery }
        let document: DiscoveryDocument = try await get("\(issuer)/.well-known/openid-configuration")
        guard document.issuer == issuer else {
            throw KeywayBackendError.invalidConfiguration(
                "The server's discovery document names the issuer \(document.issuer), not \(issuer).")
        }
        discovery = document
        return document
    }

    /// The key with `kid`, refetching the set once when it is not known.
    func key(kid: String?) async throws -> JSONWebKey {
        if lastFetch == nil { try await fetchKeys() }
        if let match = Self.match(kid, in: keys) { return match }
        if let lastFetch, clock().timeIntervalSince(lastFetch) >= minimumRefetchInterval {
            try await fetchKeys()
            if let match = Self.match(kid, in: keys) { return match }
        }
        throw KeywayBackendError.invalidToken("No key of the Keyway server matches the token's kid.")
    }

    private static func match(_ kid: String?, in keys: [JSONWebKey]) -> JSONWebKey? {
        if let kid { return keys.first { $0.kid == kid } }
        return keys.count == 1 ? keys.first : nil
    }

    private func fetchKeys() async throws {
        let jwksURI = try await metadata().jwksUri
        lastFetch = clock()
        fetchCount += 1
        let set: JSONWebKeySet = try await get(jwksURI)
        // EC P-256 keys sign access tokens and ES256 ID tokens; RSA keys sign RS256 ID tokens.
        keys = set.keys.filter { ($0.kty == "EC" && $0.crv == "P-256") || $0.kty == "RSA" }
    }

    private func get<T: Decodable>(_ url: String) async throws -> T {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: Self.timeout)
            guard response.status == .ok else {
                throw KeywayBackendError.serverUnavailable("\(url) answered HTTP \(response.status.code).")
            }
            body = try await response.body.collect(upTo: Self.maximumBodySize)
        } catch let error as KeywayBackendError {
            throw error
        } catch {
            throw KeywayBackendError.serverUnavailable("\(url) could not be fetched.")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch {
            throw KeywayBackendError.serverUnavailable("\(url) did not answer the expected JSON.")
        }
    }
}
