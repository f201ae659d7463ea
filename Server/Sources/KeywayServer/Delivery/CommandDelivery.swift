import Foundation
import KeywayProtocol

/// Production delivery through an operator-supplied command (for example a script that calls an
/// email provider, or `sendmail`): the command is run once per message with the message as JSON
/// on standard input — `{"channel","to","subject","body"}` — and must exit 0 within the timeout.
/// Its output is discarded, so nothing it prints can carry a code into the server's logs.
///
/// As a ``DeliveryProvider`` a failed run (a non-zero status, a timeout) is retried.
struct CommandDelivery: DeliveryProvider {
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

    private func send(_ message: DeliveryMessage) async throws {
        let payload = try JSONEncoder().encode(
            Payload(
                channel: message.channel.rawValue, to: message.recipient, subject: message.subject,
                body: message.body.revealed))
        let status: Int32
        do {
            status = try await ChildProcess.run(executable, arguments, input: payload, timeout: timeout).status
        } catch let failure as ChildProcess.SpawnFailure {
            throw Failure(description: failure.description)
        }
        guard status == 0 else {
            throw Failure(description: "The delivery command exited with status \(status).")
        }
    }
}

extension CommandDelivery {
    /// Runs the command for `message`; any failure is worth a retry.
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        do {
            try await send(message)
            return .delivered
        } catch let failure as Failure {
            return .retryable(failure.description)
        } catch {
            return .retryable("the delivery command failed (\(String(describing: type(of: error)))).")
        }
    }
}
