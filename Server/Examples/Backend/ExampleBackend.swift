import Foundation
import Hummingbird
import Keyway
import KeywayBackend
import KeywayProtocol
import Logging

/// An app's own backend, the way Keyway recommends: the app finishes a flow and sends the
/// `authCode` and `codeVerifier` here; the backend redeems them with the confidential
/// application's secret (so the code is worthless to anyone without it), answers who signed in
/// and hands the tokens back for the app's `KeywaySession`, which refreshes through `/refresh`. Its API routes accept Keyway access tokens, bearer
/// or DPoP-bound, through `KeywayAuthMiddleware`.
///
/// For an activated device (PowerAuth) it has a payment route that demands a signature with
/// possession and knowledge over an end-to-end encrypted body (activation scope,
/// encrypt-then-sign) and answers encrypted, and a read-only balance route that accepts an
/// `X-PowerAuth-Token` header.
///
/// Configuration (environment):
/// - `KEYWAY_ISSUER`: the Keyway server URL, for example `http://127.0.0.1:8080`.
/// - `KEYWAY_CLIENT_ID`, `KEYWAY_CLIENT_SECRET`: the confidential application's credentials.
/// - `KEYWAY_ACCEPTED_CLIENTS`: comma-separated config IDs whose access tokens the API accepts
///   (default: any application of the issuer).
/// - `PORT` (default 8090; `0` picks a free port), `PUBLIC_URL` (the URL apps use to reach this
///   backend, for DPoP proofs; default: `http://` and the request's `Host`).
@main
struct ExampleBackend {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let issuer = environment["KEYWAY_ISSUER"].flatMap(URL.init(string:)),
            let clientId = environment["KEYWAY_CLIENT_ID"], let secret = environment["KEYWAY_CLIENT_SECRET"]
        else {
            FileHandle.standardError.write(Data("Set KEYWAY_ISSUER, KEYWAY_CLIENT_ID and KEYWAY_CLIENT_SECRET.\n".utf8))
            exit(2)
        }
        let accepted = environment["KEYWAY_ACCEPTED_CLIENTS"].map {
            Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let port = Int(environment["PORT"] ?? "8090") ?? 8090
        let backend = try KeywayBackend(
            configuration: .init(
                issuer: issuer, clientId: clientId, clientSecret: Sensitive(secret), acceptedClientIds: accepted))
        let sessions = SignedInUsers()

        let router = Router(context: KeywayBackendRequestContext.self)
        router.get("health") { _, _ in "ok" }
        // The app posts what its completed flow handed it.
        router.post("session") { request, context -> Response in
            let body = try await request.decode(as: SessionRequest.self, context: context)
            do {
                let tokens = try await backend.exchange(
                    authCode: Sensitive(body.authCode), codeVerifier: Sensitive(body.codeVerifier))
                await sessions.keep(tokens)
                return try json(
                    SessionAnswer(userId: tokens.idToken.subject, email: tokens.idToken.email, tokens: tokens.response),
                    status: .ok)
            } catch let error as KeywayBackendError {
                return try json(ErrorAnswer(error: "sign_in_failed", detail: error.description), status: .badRequest)
            }
        }
        // The app's session refreshes through here: only the backend holds the client secret.
        router.post("refresh") { request, context -> Response in
            let body = try await request.decode(as: RefreshRequest.self, context: context)
            do {
                let tokens = try await backend.refresh(refreshToken: Sensitive(body.refreshToken))
                return try json(tokens.response, status: .ok)
            } catch KeywayBackendError.oauth(let status, let error) {
                // Pass the server's verdict on (invalid_grant signs the app's session out).
                return try json(error, status: .init(code: status))
            } catch let error as KeywayBackendError {
                return try json(ErrorAnswer(error: "refresh_failed", detail: error.description), status: .badGateway)
            }
        }
        // The API: only for callers with a valid Keyway access token.
        let api = router.group("api").add(middleware: KeywayAuthMiddleware(
            backend: backend,
            publicBaseURL: environment["PUBLIC_URL"].flatMap(URL.init(string:))))
        api.get("me") { _, context -> Response in
            guard let identity = context.keywayIdentity else { return Response(status: .unauthorized) }
            return try json(
                MeAnswer(
                    userId: identity.userId, clientId: identity.clientId, scopes: identity.scopes.sorted(),
                    boundToKey: identity.dpopKeyThumbprint != nil,
                    signedInHere: await sessions.contains(identity.userId)),
                status: .ok)
        }

        // Devices: a payment signed with possession and knowledge over its sealed body, answered
        // sealed; the balance for a token (read-only, so a token's single factor is enough).
        let ledger = Ledger()
        router.group("payments")
            .add(middleware: PowerAuthSignatureMiddleware(
                backend: backend, uriId: "/payments/pay", requiredFactors: [.possession, .knowledge]))
            .add(middleware: PowerAuthEncryptionMiddleware(backend: backend, scope: .activation))
            .post("pay") { request, context -> Response in
                guard let userId = context.keywaySignature?.userId else { return Response(status: .unauthorized) }
                var request = request
                let body = try await request.collectBody(upTo: 64 * 1024)
                guard let payment = try? JSONDecoder().decode(PaymentRequest.self, from: body),
                    let cents = Ledger.cents(payment.amount), cents > 0, !payment.to.isEmpty
                else {
                    return try json(ErrorAnswer(error: "invalid_payment", detail: "Send {\"to\": IBAN, \"amount\": \"12.34\"}."), status: .badRequest)
                }
                guard let balance = await ledger.pay(userId: userId, cents: cents) else {
                    return try json(ErrorAnswer(error: "insufficient_funds", detail: "The balance is too low."), status: .conflict)
                }
                return try json(
                    PaymentAnswer(
                        paymentId: UUID().uuidString.lowercased(), status: "ACCEPTED", to: payment.to, amount: payment.amount,
                        userId: userId, balance: Ledger.text(balance)),
                    status: .ok)
            }
        router.group("accounts")
            .add(middleware: PowerAuthTokenMiddleware(backend: backend, requiredFactors: [.possession]))
            .get("balance") { _, context -> Response in
                guard let userId = context.keywayToken?.userId else { return Response(status: .unauthorized) }
                return try json(
                    BalanceAnswer(userId: userId, balance: Ledger.text(await ledger.balance(userId: userId)), currency: "EUR"),
                    status: .ok)
            }

        var logger = Logger(label: "example-backend")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                // Scripts and tests read the port from this line.
                FileHandle.standardOutput.write(
                    Data("example backend listening on port \(channel.localAddress?.port ?? port)\n".utf8))
            },
            logger: logger)
        try await app.runService()
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value))))
    }
}

struct SessionRequest: Decodable {
    var authCode: String
    var codeVerifier: String
}

struct SessionAnswer: Encodable {
    var userId: String
    var email: String?
    /// The token response, for the app's `KeywaySession.save(_:)`.
    var tokens: TokenResponse
}

struct RefreshRequest: Decodable {
    var refreshToken: String
}

struct MeAnswer: Encodable {
    var userId: String
    var clientId: String
    var scopes: [String]
    var boundToKey: Bool
    var signedInHere: Bool
}

struct ErrorAnswer: Encodable {
    var error: String
    var detail: String
}

struct PaymentRequest: Decodable {
    var to: String
    var amount: String
}

struct PaymentAnswer: Encodable {
    var paymentId: String
    var status: String
    var to: String
    var amount: String
    var userId: String
    var balance: String
}

struct BalanceAnswer: Encodable {
    var userId: String
    var balance: String
    var currency: String
}

/// Each user's balance in cents (a real backend keeps accounts in its database): 1,000.00 EUR
/// to start with.
actor Ledger {
    private var balances: [String: Int] = [:]
    static let opening = 100_000

    func balance(userId: String) -> Int { balances[userId] ?? Self.opening }

    /// Takes `cents` from the user's balance; `nil` when it is too low.
    func pay(userId: String, cents: Int) -> Int? {
        let balance = balances[userId] ?? Self.opening
        guard cents <= balance else { return nil }
        balances[userId] = balance - cents
        return balance - cents
    }

    /// `"12.34"` in cents.
    static func cents(_ amount: String) -> Int? {
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0, whole < 1_000_000_000 else { return nil }
        guard parts.count == 2 else { return whole * 100 }
        guard parts[1].count == 2, let fraction = Int(parts[1]), fraction >= 0 else { return nil }
        return whole * 100 + fraction
    }

    static func text(_ cents: Int) -> String {
        String(format: "%d.%02d", cents / 100, cents % 100)
    }
}

/// The refresh tokens of users who signed in through this backend (a real backend would use its
/// database and its own session cookie).
actor SignedInUsers {
    private var refreshTokens: [String: Sensitive<String>] = [:]

    func keep(_ tokens: TokenSet) {
        refreshTokens[tokens.idToken.subject] = tokens.response.refreshToken
    }

    func contains(_ userId: String) -> Bool {
        refreshTokens[userId] != nil
    }
}
