import Foundation
import NIOCore

/// The server's database round trips per request, from its `/metrics` exposition read before and
/// after a measure: `keyway_database_round_trips_total` (PostgreSQL only) over
/// `keyway_http_requests_total`, by route and method.
struct RoundTrips: Sendable {
    /// One route's requests and round trips between two readings.
    struct Route: Sendable {
        var route: String
        var requests: Double
        var roundTrips: Double
        var perRequest: Double { requests > 0 ? roundTrips / requests : 0 }
    }

    /// A measure's scenario and what each of its routes sent.
    struct Measure: Sendable {
        var scenario: String
        var routes: [Route]
    }

    /// The counters of one reading, by `METHOD route`.
    struct Reading: Sendable {
        var requests: [String: Double] = [:]
        var roundTrips: [String: Double] = [:]
    }

    /// Reads the counters from `GET /metrics`.
    static func read(host: String, port: Int, adminToken: String, group: any EventLoopGroup) async throws -> Reading {
        let text = try await BenchConnection.with(host: host, port: port, group: group) { connection in
            let response = try await connection.send(.GET, "/metrics", headers: [("Authorization", "Bearer \(adminToken)")])
            guard response.status == 200 else { throw BenchFailure("GET /metrics: HTTP \(response.status)") }
            return String(buffer: response.body)
        }
        return parse(text)
    }

    /// The two counters of a Prometheus text exposition.
    static func parse(_ text: String) -> Reading {
        var reading = Reading()
        for line in text.split(separator: "\n") {
            let isRequests = line.hasPrefix("keyway_http_requests_total{")
            guard isRequests || line.hasPrefix("keyway_database_round_trips_total{"),
                let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}"),
                let value = Double(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces))
            else { continue }
            let labels = label(of: line[line.index(after: open)..<close])
            guard let route = labels["route"], let method = labels["method"] else { continue }
            let key = "\(method) \(route)"
            if isRequests { reading.requests[key, default: 0] += value } else { reading.roundTrips[key, default: 0] += value }
        }
        return reading
    }

    /// What each route sent between `before` and `after`, for the routes that sent anything.
    static func difference(_ before: Reading, _ after: Reading) -> [Route] {
        // The readings' own `GET /metrics` are left out.
        after.roundTrips.keys.sorted().filter { !$0.hasSuffix(" /metrics") }.compactMap { key in
            let trips = after.roundTrips[key, default: 0] - before.roundTrips[key, default: 0]
            let requests = after.requests[key, default: 0] - before.requests[key, default: 0]
            guard trips > 0, requests > 0 else { return nil }
            return Route(route: key, requests: requests, roundTrips: trips)
        }
    }

    private static func label(of text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        for pair in text.split(separator: ",") {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            labels[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: "\""))
        }
        return labels
    }
}
