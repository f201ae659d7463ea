import AsyncHTTPClient
import Foundation
import KeywayProtocol
import Logging
import NIOCore
import NIOHTTP1

/// Fetches and caches trusted issuers' key sets from their `jwks_uri`.
///
/// A set is cached for its `Cache-Control: max-age` (clamped to one minute … one day; ten minutes
/// without one). A token naming a `kid` the cached set lacks triggers one refetch, at most every
/// 30 seconds per URL, so a flood of tokens with made-up `kid`s cannot turn into a flood of
/// requests. When a refetch fails the cached set keeps serving.
actor JWKSFetcher {
    struct Failure: Error, Sendable {
        let message: String
    }

    private struct Entry {
        var keys: [JSONWebKey]
        var fetchedAt: Date
        var expiresAt: Date
    }

    static let defaultLifetime: TimeInterval = 600
    static let minimumRefetchInterval: TimeInterval = 30
    static let maximumBodySize = 256 * 1024
    /// The deadline of one request to another party — a key set, a provider's discovery document
    /// or token endpoint — connection attempts included: long enough for a provider that is slow
    /// to answer, short enough that a sign-in waiting on one that is down fails in time.
    static let timeout: TimeAmount = .seconds(10)

    private let clock: any ServerClock
    private let logger: Logger
    private var entries: [URL: Entry] = [:]
    private var lastAttempt: [URL: Date] = [:]

    init(clock: any ServerClock, logger: Logger) {
        self.clock = clock
        self.logger = logger
    }

    /// Whether a JWKS URL may be fetched: `https`, or `http` to a loopback host (``LoopbackHost``:
    /// `localhost`, all of 127.0.0.0/8, `::1`, as everywhere else in the server); no credentials.
    nonisolated static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, url.user == nil, url.password == nil else {
            return false
        }
        if scheme == "https" { return true }
        return scheme == "http" && LoopbackHost.contains(host)
    }

    /// The keys at `url`: the cached set, unless it is stale or lacks `kid`.
    func keys(at url: URL, kid: String?) async throws -> [JSONWebKey] {
        let now = clock.now()
        if let entry = entries[url], now < entry.expiresAt,
            kid == nil || entry.keys.contains(where: { $0.kid == kid })
        {
            return entry.keys
        }
        if let last = lastAttempt[url], now.timeIntervalSince(last) < Self.minimumRefetchInterval {
            if let cached = entries[url] { return cached.keys }
            // No set yet and a fetch was tried moments ago (it failed, or is still running).
            throw Failure(message: "the issuer's key set could not be fetched; the next try is within 30 seconds")
        }
        lastAttempt[url] = now
        do {
            let (keys, lifetime) = try await fetch(url)
            entries[url] = Entry(keys: keys, fetchedAt: now, expiresAt: now.addingTimeInterval(lifetime))
            return keys
        } catch let failure as Failure {
            logger.warning("JWKS fetch failed", metadata: ["url": "\(url.absoluteString)", "reason": "\(failure.message)"])
            if let cached = entries[url] { return cached.keys }
            throw failure
        }
    }

    private func fetch(_ url: URL) async throws -> ([JSONWebKey], TimeInterval) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
            body = try await response.body.collect(upTo: Self.maximumBodySize)
        } catch {
            throw Failure(message: "the issuer's key set could not be fetched")
        }
        guard response.status == .ok else {
            throw Failure(message: "the issuer's key set answered HTTP \(response.status.code)")
        }
        guard let set = try? JSONDecoder().decode(JSONWebKeySet.self, from: Data(buffer: body)) else {
            throw Failure(message: "the issuer's key set is not a JSON Web Key Set")
        }
        // Keys this server cannot use (other types, encryption keys) are skipped.
        let usable = set.keys.filter { (try? JWKSignatures.validate($0)) != nil }
        guard !usable.isEmpty else { throw Failure(message: "the issuer's key set has no usable signing key") }
        return (usable, Self.lifetime(cacheControl: response.headers.first(name: "Cache-Control")))
    }

    static func lifetime(cacheControl: String?) -> TimeInterval {
        guard let cacheControl else { return defaultLifetime }
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "max-age", let seconds = TimeInterval(parts[1]) {
                return min(max(seconds, 60), 86_400)
            }
        }
        return defaultLifetime
    }
}
