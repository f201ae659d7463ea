import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `keyway-bench anonymous-storage`: what one client without credentials can make a server with
/// its default limits keep. From one address it sends pushed authorization requests (each with 40
/// junk parameters of 1,000 bytes) and authorization visits as fast as it can, and counts how many
/// the server accepted (each kept as one row until it expires) and how many it refused (`429`);
/// with the server's process ID, its resident memory before and after.
struct AnonymousStorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anonymous-storage",
        abstract: "Floods a server that has its default limits with pushed authorization requests and authorization visits from one address.")

    @OptionGroup var server: ServerTarget
    private var host: String { server.host }
    private var port: Int { server.port }
    private var configId: String { server.configId }

    @Option(help: "The server's admin token (to register the redirect URI the requests name).")
    var adminToken: String

    @Option(help: "The server's process ID, for its resident memory.")
    var serverPid: Int32?

    @Option(help: "Pushed authorization requests to send, then as many authorization visits.")
    var requests = 10_000

    @Option(help: "Connections sending them at once, all from 127.0.0.1.")
    var connections = 8

    private static let redirectURI = "http://127.0.0.1:4711/callback"
    /// RFC 7636 Appendix B's challenge.
    private static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    func run() async throws {
        guard requests >= 1, connections >= 1 else { throw ValidationError("Send at least one request on one connection.") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        try await BenchConnection.with(host: host, port: port, group: group) { connection in
            let response = try await connection.send(
                .PATCH, "/admin/applications/\(configId)",
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(adminToken)")],
                body: ByteBuffer(string: #"{"redirectUris":["\#(Self.redirectURI)"]}"#))
            guard response.status == 200 else {
                throw BenchFailure("redirect URI: HTTP \(response.status) \(String(buffer: response.body).prefix(300))")
            }
        }
        let before = try serverPid.map(ProcessMemory.residentBytes(of:))
        progress("anonymous-storage: \(requests) pushed requests on \(connections) connections")
        let pushed = try await flood(group: group) { connection, index in
            var form = [
                "response_type=code", "client_id=\(configId)", "redirect_uri=\(Self.redirectURI)", "scope=openid",
                "state=s\(index)", "code_challenge=\(Self.challenge)", "code_challenge_method=S256",
            ]
            let junk = String(repeating: "j", count: 1_000)
            for parameter in 0..<40 { form.append("junk\(parameter)=\(junk)") }
            let response = try await connection.send(
                .POST, "/oauth2/par", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: ByteBuffer(string: form.joined(separator: "&")))
            return response.status
        }
        progress("anonymous-storage: \(requests) authorization visits")
        let visits = try await flood(group: group) { connection, index in
            let path =
                "/oauth2/authorize?response_type=code&client_id=\(configId)&redirect_uri=\(Self.redirectURI)"
                + "&scope=openid&state=v\(index)&code_challenge=\(Self.challenge)&code_challenge_method=S256"
            return try await connection.send(.GET, path).status
        }
        let after = try serverPid.map(ProcessMemory.residentBytes(of:))
        try await group.shutdownGracefully()

        print("### What one client without credentials can make the server keep (default limits)\n")
        print(
            "One address sends \(requests) pushed authorization requests (each with 40 junk parameters of 1,000 bytes) and then \(requests) authorization visits on \(connections) connections, as fast as the server answers. An accepted one is kept as one row until it expires; a refused one (`429`) keeps nothing.\n")
        print("| Requests | sent | accepted (rows kept) | refused `429` | other |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for (name, tally) in [("pushed authorization requests", pushed), ("authorization visits", visits)] {
            print("| \(name) | \(tally.sent) | \(tally.accepted) | \(tally.refused) | \(tally.other) |")
        }
        if let before, let after {
            print("\nServer RSS: \(before / 1024) KiB before, \(after / 1024) KiB after (\((after - before) / 1024) KiB more).")
        }
        print()
    }

    struct Tally: Sendable {
        var sent = 0
        var accepted = 0
        var refused = 0
        var other = 0
    }

    /// Sends `requests` requests over `connections` connections; a `2xx` or `303` is accepted.
    private func flood(
        group: MultiThreadedEventLoopGroup, _ send: @escaping @Sendable (BenchConnection, Int) async throws -> Int
    ) async throws -> Tally {
        let (host, port, requests, connections) = (host, port, requests, connections)
        return try await withThrowingTaskGroup(of: Tally.self) { tasks in
            for worker in 0..<connections {
                tasks.addTask {
                    try await BenchConnection.with(host: host, port: port, group: group) { connection in
                        var tally = Tally()
                        for index in stride(from: worker, to: requests, by: connections) {
                            let status = try await send(connection, index)
                            tally.sent += 1
                            switch status {
                            case 200..<300, 303: tally.accepted += 1
                            case 429: tally.refused += 1
                            case 500...: throw BenchFailure("HTTP \(status)")
                            default: tally.other += 1
                            }
                        }
                        return tally
                    }
                }
            }
            var total = Tally()
            for try await part in tasks {
                total.sent += part.sent
                total.accepted += part.accepted
                total.refused += part.refused
                total.other += part.other
            }
            return total
        }
    }
}
