import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// Assigns the trace ID, makes the client's address known below the routes (``RequestClient``),
/// turns every thrown error into a problem document, and writes one log
/// line per request: method, route template (never the path itself, whose segments may be
/// secrets such as a sign-in link's token, nor the query), status, latency and trace ID.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let logger: Logger
    let metrics: ServerMetrics
    /// Whose forwarding headers name the client (`--trusted-proxies`).
    var trustedProxies = TrustedProxies.none
    /// Where the requests being answered are counted, for a stop that takes long to name them.
    var inProgress: RequestsInProgress?
    /// Whether to count the statements each request sends to the database (PostgreSQL), by route
    /// (`keyway_database_round_trips_total`).
    var countsRoundTrips = false

    static let traceparentHeader = HTTPField.Name("traceparent")!

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        context.remoteAddress = trustedProxies.clientAddress(peer: context.remoteAddress, headers: request.headers)
        // A W3C trace the request belongs to makes its trace ID this request's; else the
        // client's own trace ID header; else the one the context made.
        if let parent = request.headers[Self.traceparentHeader], let traceId = TraceID.fromTraceparent(parent) {
            context.traceId = traceId
        } else if let incoming = request.headers[HTTPResponses.traceIdHeader], TraceID.isAcceptable(incoming) {
            context.traceId = incoming
        }
        let traceId = context.traceId
        var response: Response
        let tally = countsRoundTrips ? RoundTripTally() : nil
        func answer(_ context: Context) async throws -> Response {
            if let inProgress {
                try await inProgress.tracking(request.method.rawValue, context) { try await next(request, context) }
            } else {
                try await next(request, context)
            }
        }
        do {
            response = try await RequestClient.$address.withValue(context.remoteAddress) { [context] in
                // Only PostgreSQL counts: SQLite's requests bind no tally.
                if let tally {
                    try await RoundTripTally.$current.withValue(tally) { try await answer(context) }
                } else {
                    try await answer(context)
                }
            }
        } catch let problem as FlowProblem {
            metrics.problem(code: problem.problem.code.rawValue)
            if problem.problem.status >= 500 {
                logger.error(
                    "request answered \(problem.problem.code.rawValue)",
                    metadata: ["traceId": "\(traceId)", "route": "\(Self.route(context))"])
            }
            response = HTTPResponses.problem(problem.problem, traceId: traceId)
        } catch let failure as any TransientDatabaseFailure {
            metrics.problem(code: FlowProblem.databaseBusy.problem.code.rawValue)
            logger.warning("request refused: \(failure.description)", metadata: ["traceId": "\(traceId)"])
            response = HTTPResponses.problem(FlowProblem.databaseBusy.problem, traceId: traceId)
        } catch let error as any HTTPResponseError {
            response = HTTPResponses.problem(Self.problem(for: error.status), traceId: traceId)
        } catch {
            logger.error(
                "request failed: \(String(describing: type(of: error)))\(PostgreSQLDatabase.diagnosis(error))",
                metadata: ["traceId": "\(traceId)"])
            response = HTTPResponses.problem(FlowProblem.internalError.problem, traceId: traceId)
        }
        response.headers[HTTPResponses.traceIdHeader] = traceId
        response.headers[HTTPResponses.protocolVersionHeader] = ProtocolVersion.current
        let elapsed = ContinuousClock.now - start
        let status = Int(response.status.code)
        let route = Self.route(context)
        metrics.request(route: route, method: request.method.rawValue, status: status, duration: elapsed)
        if let tally { metrics.databaseRoundTrips(route: route, method: request.method.rawValue, count: tally.total) }

        let micros = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        logger.info(
            "\(request.method) \(route) \(response.status.code) \(Self.milliseconds(micros))ms",
            metadata: ["traceId": "\(traceId)"])
        return response
    }

    /// The template of the route that answered (`/v1/flows/{flowId}/code`), or `unmatched` when no
    /// route did: the one label of every unknown path, so no client can grow the metrics or write
    /// a path's segments into the log. Hummingbird sets the template before the route runs, in a
    /// box every copy of the context shares.
    static func route(_ context: Context) -> String {
        guard let template = context.endpointPath, template != "NotFound" else { return "unmatched" }
        return template
    }

    /// `1234` µs as `"1.23"`.
    static func milliseconds(_ micros: Int64) -> String {
        let hundredths = (micros + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func problem(for status: HTTPResponse.Status) -> Problem {
        switch status.code {
        case 404:
            Problem(
                code: .notFound, status: 404, title: "Not found", detail: "No endpoint matches this path.",
                action: .abort)
        case 405:
            Problem(
                code: .methodNotAllowed, status: 405, title: "Method not allowed",
                detail: "This endpoint does not accept this HTTP method.", action: .abort)
        case 413:
            Problem(
                code: .payloadTooLarge, status: 413, title: "Payload too large",
                detail: "The request body is larger than the server accepts.", action: .abort)
        case 400..<500:
            Problem(
                code: .invalidRequest, status: Int(status.code), title: "Invalid request",
                detail: "The request could not be processed.", action: .abort)
        default:
            FlowProblem.internalError.problem
        }
    }
}

import HTTPTypes
