import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// What a client without credentials can make the server keep is bounded: an authorization visit
/// and a pushed authorization request count against the client network's flow starts, a pushed
/// request keeps only the parameters an authorization request has, and both are deleted once
/// they expire.
@Suite("Unauthenticated requests: visits and pushed requests are bounded")
struct UnauthenticatedStorageTests {
    static let redirectURI = "http://127.0.0.1:4711/callback"
    /// RFC 7636 Appendix B's challenge.
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static func authorizePath(_ index: Int) -> String {
        "/oauth2/authorize?response_type=code&client_id=\(TestServer.configId)&redirect_uri=\(redirectURI)"
            + "&scope=openid&state=s\(index)&code_challenge=\(Self.challenge)&code_challenge_method=S256"
    }

    @Test(.timeLimit(.minutes(10)))
    func visitsArePerNetworkLimitedAndSweptAtExpiry() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = 5
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server in
            try await server.registerRedirectURI(Self.redirectURI)
            for index in 0..<5 {
                #expect(try await server.request("GET", Self.authorizePath(index)).status == 303)
            }
            let refused = try await server.request("GET", Self.authorizePath(9))
            #expect(refused.status == 429)
            #expect(refused.headers["retry-after"] != nil)
            #expect(try await server.rowCount("browser_flows") == 5)
            // Another client's network is not held back by this one.
            #expect(try await server.request("GET", Self.authorizePath(10), from: "127.0.0.2").status == 303)
            #expect(try await server.rowCount("browser_flows") == 6)
            // Once they expire, the sweep deletes them at once, not a day later.
            clock.advance(by: 60 * 60)
            try await server.app.sweepNow()
            #expect(try await server.rowCount("browser_flows") == 0)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aPushedRequestKeepsOnlyItsParametersAndIsLimited() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = 3
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server in
            try await server.registerRedirectURI(Self.redirectURI)
            var form = [
                "response_type": "code", "client_id": TestServer.configId, "redirect_uri": Self.redirectURI,
                "scope": "openid", "state": "s", "code_challenge": Self.challenge,
                "code_challenge_method": "S256",
            ]
            // Junk parameters, 40 of 1,000 bytes each: dropped, not stored.
            for index in 0..<40 { form["junk\(index)"] = String(repeating: "j", count: 1_000) }
            for _ in 0..<3 { #expect(try await server.form("/oauth2/par", form).status == 201) }
            let stored = try await server.rowCount("pushed_authorization_requests")
            #expect(stored == 3)
            // Each kept about 300 bytes, not the 40 kB sent.
            #expect(try await server.rowCount("pushed_authorization_requests WHERE LENGTH(request) >= 2000") == 0)

            let refused = try await server.form("/oauth2/par", form)
            #expect(refused.status == 429)
            #expect(refused.json["error"] as? String == "temporarily_unavailable")
            var long = form
            long["state"] = String(repeating: "s", count: 3_000)
            #expect(try await server.form("/oauth2/par", long, headers: [:]).status != 201)

            clock.advance(by: 91)
            try await server.app.sweepNow()
            #expect(try await server.rowCount("pushed_authorization_requests") == 0)
        }
    }
}

/// A request object by reference (OpenID Connect Core §6.2) is refused at the client's registered
/// redirect URI with `request_uri_not_supported`, its `state` and the issuer; at an unregistered
/// one the page says it.
@Suite("Authorization: a request_uri that is not a pushed request")
struct RequestByReferenceTests {
    @Test func isRefusedAtTheRedirectURIOnceTheClientAndItAreKnown() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            try await server.registerRedirectURI(UnauthenticatedStorageTests.redirectURI)
            let query =
                "client_id=\(TestServer.configId)&redirect_uri=\(UnauthenticatedStorageTests.redirectURI)&response_type=code"
                + "&scope=openid&state=s-42&request_uri=https%3A%2F%2Frp.example%2Frequest.jwt"
            let answer = try await server.request("GET", "/oauth2/authorize?\(query)")
            #expect(answer.status == 303)
            let location = try #require(answer.headers["location"])
            let components = try #require(URLComponents(string: location))
            let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(location.hasPrefix(UnauthenticatedStorageTests.redirectURI + "?"))
            #expect(items["error"] == "request_uri_not_supported")
            #expect(items["state"] == "s-42")
            #expect(items["iss"] == server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            // An unregistered redirect URI: no redirect, a page.
            let elsewhere = try await server.request(
                "GET",
                "/oauth2/authorize?client_id=\(TestServer.configId)&redirect_uri=https%3A%2F%2Fevil.example%2Fcb"
                    + "&request_uri=https%3A%2F%2Frp.example%2Frequest.jwt")
            #expect(elsewhere.status == 400 && elsewhere.headers["location"] == nil)
        }
    }
}
