import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Production mode: no dev outbox, codes go through the delivery command")
struct ProductionModeTests {
    /// A delivery script that appends each message (JSON) as one line to `messages.jsonl`.
    func makeDeliveryScript(failing: Bool = false) throws -> (script: String, messages: URL) {
        let directory = TestFiles.directory.appendingPathComponent("keyway-delivery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let messages = directory.appendingPathComponent("messages.jsonl")
        let script = directory.appendingPathComponent("deliver.sh")
        let text = failing ? "#!/bin/sh\ncat > /dev/null\nexit 3\n" : "#!/bin/sh\ncat >> '\(messages.path)'\necho >> '\(messages.path)'\n"
        try text.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (script.path, messages)
    }

    @Test func signsInWithTheDeliveryCommandAndHidesTheOutbox() async throws {
        let clock = ManualClock()
        let logs = LogCapture()
        let delivery = try makeDeliveryScript()
        try await withTestServer(TestServer.start(clock: clock, logs: logs, deliveryCommand: delivery.script)) { server in
            #expect(server.app.devConfigId == nil)
            #expect(try await server.request("GET", "/dev/outbox").status == 404)

            let app = try await server.app.register(.init(name: "Prod", clientType: .public, autoCreateUsers: true))
            let keyway = try KeywayClient(configID: app.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "prod@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)

            let line = try #require(try String(contentsOf: delivery.messages, encoding: .utf8).split(separator: "\n").first)
            let message = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: String]
            #expect(message["channel"] == "email")
            #expect(message["to"] == "prod@example.com")
            let body = try #require(message["body"])
            let code = try #require(body.split(separator: " ").first { $0.count == 7 && $0.hasSuffix(".") }).dropLast()
            await keyway.flow.submitCode(String(code))
            #expect(keyway.flow.currentUpdate.completion != nil)
            #expect(!logs.all.contains { $0.contains(String(code)) })
        }
    }

    @Test func failedDeliveryAnswers503AndKeepsNoFlow() async throws {
        let clock = ManualClock()
        let delivery = try makeDeliveryScript(failing: true)
        try await withTestServer(TestServer.start(clock: clock, deliveryCommand: delivery.script)) { server in
            let app = try await server.app.register(.init(name: "Prod", clientType: .public, autoCreateUsers: true))
            let keyway = try KeywayClient(configID: app.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "down@example.com")
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .deliveryFailed)
            #expect(error.action == .retryRequest)
            #expect(await keyway.flow.currentStep == nil)
        }
    }

    @Test func productionWithoutDeliveryRefusesToStart() async throws {
        var configuration = ServerConfiguration(
            port: 0, database: .sqlite(path: TestServer.temporaryDatabase()), devMode: false)
        configuration.masterKey = TestServer.masterKey
        do {
            _ = try await KeywayServerApp.bootstrap(configuration: configuration, logger: LogCapture().logger())
            Issue.record("a production server without delivery started")
        } catch let error as ConfigurationError {
            #expect(error.description.contains("deliver"), "\(error)")
        }
    }
}
