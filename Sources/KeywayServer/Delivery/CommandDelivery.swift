import Foundation
import KeywayProtocol

/// Production delivery through an operator-supplied command (for example a script that calls an
/// email provider, or `sendmail`): the command is run once per message with the message as JSON
/// on standard input — `{"channel","to","subject","body"}` — and must exit 0 within the timeout.
/// Its output is discarded, so nothing it prints can carry a code into the server's logs.
struct CommandDelivery: MessageSender {
    let executable: String
    let arguments: [String]
    var timeout: Duration = .seconds(15)

    private struct Payload: Encodable {
        let channel: String
        let to: String
        let subject: String
        let body: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func send(_ message: OutgoingMessage) async throws {
        let payload = try JSONEncoder().encode(
            Payload(channel: message.channel.rawValue, to: message.to, subject: message.subject, body: message.body))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
                    do {
                        try process.run()
                        input.fileHandleForWriting.write(payload)
                        try? input.fileHandleForWriting.close()
                    } catch {
                        process.terminationHandler = nil
                        continuation.resume(returning: -1)
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else {
                process.terminate()
                throw Failure(description: "The delivery command did not finish within \(timeout).")
            }
            return first
        }
        guard status == 0 else {
            throw Failure(description: "The delivery command exited with status \(status).")
        }
    }
}
