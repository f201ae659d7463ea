import Foundation
import Keyway
import Testing

@Suite("An independent OpenID Connect library verifies Keyway's tokens")
struct InteropTests {
    /// The repository root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func pythonJoserfcVerifiesTheIDTokenAndAccessToken() async throws {
        let clock = ManualClock(Date())
        let server = try await TestServer.start(clock: clock)
        defer { Task { await server.stop() } }
        let keyway = try makeKeyway(server, clock: clock)
        await keyway.start(identifier: "interop@example.com")
        await keyway.flow.submitCode(try await server.latestCode(to: "interop@example.com"))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyway-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let input = directory.appendingPathComponent("tokens.json")
        let outputURL = directory.appendingPathComponent("output.txt")
        try JSONSerialization.data(withJSONObject: [
            "id_token": tokens.response.idToken!.revealed, "access_token": tokens.response.accessToken.revealed,
        ]).write(to: input)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.root.appendingPathComponent("Tests/Interop/verify_tokens.py").path,
            "--issuer", server.baseURL.absoluteString, "--audience", TestServer.configId,
        ]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        // Wait without blocking a cooperative thread: the server under test needs them.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
        try output.close()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "verify_tokens.py: \(text)")
        #expect(text.contains("verified id_token sub=\(tokens.idToken.subject)"))
        #expect(text.contains("verified access_token"))
    }
}
