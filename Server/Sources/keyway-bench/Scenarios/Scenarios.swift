import Foundation
import Synchronization
import NIOCore
import NIOHTTP1

/// Whole email-OTP sign-ins: start the flow, read the code from the dev outbox, submit it, redeem
/// the authorization code. The outbox read is one of the four requests and is counted.
struct SignInScenario: Scenario {
    let client: SignInClient
    /// Makes the addresses unique across runs against the same server.
    let tag: String
    var name: String { "sign-in" }

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        let email = "\(tag)-\(user)-\(index)@bench.example"
        let authCode = try await client.authorizationCode(connection, email: email)
        try await client.redeem(connection, authCode: authCode)
        return true
    }
}

/// Starts flows and leaves them open (for the memory measure), up to `perUser` flows per user.
struct OpenFlowScenario: Scenario {
    let client: SignInClient
    let tag: String
    let perUser: Int
    var name: String { "open flows" }

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        guard index < perUser else { return false }
        _ = try await client.start(connection, email: "\(tag)-\(user)-\(index)@bench.example")
        return true
    }
}

/// Redeems authorization codes prepared beforehand: the token endpoint alone.
struct RedeemScenario: Scenario {
    let client: SignInClient
    /// Codes per user.
    let pool: [[String]]
    var name: String { "code redemption" }

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        guard index < pool[user].count else { return false }
        try await client.redeem(connection, authCode: pool[user][index])
        return true
    }
}

/// A plain GET that must answer 200 (JWKS, discovery).
struct GetScenario: Scenario {
    let name: String
    let path: String

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        let response = try await connection.send(.GET, path)
        guard response.status == 200, response.body.readableBytes > 0 else {
            throw BenchFailure("GET \(path): HTTP \(response.status)")
        }
        return true
    }
}

/// The current refresh token of each user's family.
final class RefreshTokens: Sendable {
    private let tokens: Mutex<[String]>

    init(count: Int) { tokens = Mutex([String](repeating: "", count: count)) }

    func token(for user: Int) -> String { tokens.withLock { $0[user] } }

    func set(_ token: String, for user: Int) { tokens.withLock { $0[user] = token } }
}

/// Refresh grants: each user rotates its own token family, always presenting the latest token.
struct RefreshScenario: Scenario {
    let client: SignInClient
    let tokens: RefreshTokens
    var name: String { "refresh" }

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        let successor = try await client.refresh(connection, refreshToken: tokens.token(for: user))
        tokens.set(successor, for: user)
        return true
    }
}

/// Requests no client may make the server remember: a random path segment of 4,000 letters on
/// a path no route answers, on the admin API without its token, on a flow and on a sign-in link
/// that do not exist. Any answer below 500 is right; what is measured is the server's memory.
struct RandomPathScenario: Scenario {
    let perUser: Int
    var name: String { "random path segments" }

    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool {
        guard index < perUser else { return false }
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        let segment = String(decoding: (0..<4_000).map { _ in letters.randomElement()! }, as: UTF8.self)
        let paths = ["/\(segment)", "/admin/users/\(segment)", "/v1/flows/\(segment)", "/link/\(segment)"]
        let path = paths[index % paths.count]
        let response = try await connection.send(.GET, path)
        guard response.status < 500 else { throw BenchFailure("GET \(path.prefix(20))…: HTTP \(response.status)") }
        return true
    }
}
