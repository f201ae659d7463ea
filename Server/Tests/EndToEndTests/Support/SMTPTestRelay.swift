import Foundation
import KeywayServer
import KeywayTestSupport

/// An SMTP relay on loopback for the tests: `Tests/Interop/smtp_relay.py`, an aiosmtpd server in
/// a child process, with its own throwaway CA. Reports what it received (and refused) as JSON
/// lines on its standard output.
final class SMTPTestRelay: ScopedTestServer, Sendable {
    /// A message the relay accepted.
    struct Received {
        var mailFrom: String
        var recipients: [String]
        /// The message as it arrived, header and body (dot-stuffing undone).
        var data: String
        /// Whether it arrived over TLS.
        var tls: Bool
        /// The user that authenticated, if any.
        var login: String?
        /// The message as Python's `email` package reads it: `from_name`, `from_address`, `to`,
        /// `subject` and `body` decoded, `content_type`, `charset`, `transfer_encoding`,
        /// `message_id`, `date`, and `defects` (the names of what it found wrong).
        var parsed: [String: Any]

        /// The decoded body, its CRLF line endings as LF.
        var body: String? { field("body")?.replacingOccurrences(of: "\r\n", with: "\n") }
        /// A member of ``parsed`` as text.
        func field(_ name: String) -> String? { parsed[name] as? String }
        /// The six-digit code in the decoded body.
        var code: String? {
            guard let body, let range = body.range(of: "[0-9]{6}", options: .regularExpression) else {
                return nil
            }
            return String(body[range])
        }
    }

    private let process: ChildProcess
    let port: Int
    /// The folder of the relay's CA (`ca.pem`) and certificate.
    let certificates: URL

    /// The CA certificate the relay's certificate chains to, PEM.
    var caPEM: String { (try? String(contentsOf: certificates.appendingPathComponent("ca.pem"), encoding: .utf8)) ?? "" }
    /// The path of that CA certificate.
    var caFile: String { certificates.appendingPathComponent("ca.pem").path }

    private init(process: ChildProcess, port: Int, certificates: URL) {
        self.process = process
        self.port = port
        self.certificates = certificates
    }

    /// Starts a relay: `tls` is `starttls`, `tls` or `none`; `auth` as `user:password` requires
    /// those credentials; the first `refuseFirst` recipients are refused with `refuseCode`.
    static func start(
        tls: String = "starttls", auth: String? = nil, mechanisms: String? = nil, refuseFirst: Int = 0,
        refuseCode: Int = 451, smtpUTF8: Bool = false, certificates: URL? = nil
    ) async throws -> SMTPTestRelay {
        let folder = certificates ?? TestFiles.directory.appendingPathComponent("smtp-\(UUID().uuidString)")
        var arguments = [
            PythonScript.root.appendingPathComponent("Tests/Interop/smtp_relay.py").path, "--certs", folder.path,
            "--tls", tls, "--refuse-first", "\(refuseFirst)", "--refuse-code", "\(refuseCode)",
        ]
        if let auth { arguments += ["--auth", auth] }
        if let mechanisms { arguments += ["--mechanisms", mechanisms] }
        if smtpUTF8 { arguments.append("--smtputf8") }
        let process = try ChildProcess(executable: "python3", arguments: arguments)
        var port: Int?
        do {
            try await waitUntil("the SMTP relay listens") {
                let output = String(decoding: process.standardOutput, as: UTF8.self)
                if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }) {
                    port = Int(line.dropFirst(5))
                    return true
                }
                guard process.isRunning else {
                    throw TestFailure(
                        "The SMTP relay exited: \(String(decoding: process.standardError, as: UTF8.self))")
                }
                return false
            }
        } catch {
            process.terminate()
            _ = await process.waitForExit(timeout: .seconds(10))
            throw error
        }
        return SMTPTestRelay(process: process, port: port ?? 0, certificates: folder)
    }

    /// Every event the relay reported, oldest first.
    var events: [[String: Any]] {
        String(decoding: process.standardOutput, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The messages the relay accepted, oldest first.
    var messages: [Received] {
        events.filter { $0["event"] as? String == "message" }.map {
            Received(
                mailFrom: $0["mail_from"] as? String ?? "", recipients: $0["rcpt_tos"] as? [String] ?? [],
                data: $0["data"] as? String ?? "", tls: $0["tls"] as? Bool ?? false, login: $0["login"] as? String,
                parsed: $0["parsed"] as? [String: Any] ?? [:])
        }
    }

    /// How many recipients the relay refused.
    var refusals: Int { events.filter { $0["event"] as? String == "refused" }.count }

    /// Waits until the relay has accepted `count` messages, and answers them.
    func waitForMessages(_ count: Int = 1) async throws -> [Received] {
        try await waitUntil("the SMTP relay has \(count) message(s)") { messages.count >= count }
        return messages
    }

    /// The relay's standard error (aiosmtpd's log), for failure messages.
    var log: String { String(decoding: process.standardError, as: UTF8.self) }

    func stop() async {
        process.terminate()
        _ = await process.waitForExit(timeout: .seconds(30))
    }
}
