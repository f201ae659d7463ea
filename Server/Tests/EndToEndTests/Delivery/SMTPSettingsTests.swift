import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The SMTP relay's settings as an operator gives them to `keyway-server`: options, environment
/// and configuration file, the password masked wherever settings are shown, and the settings the
/// server refuses.
@Suite("keyway-server: SMTP relay settings")
struct SMTPSettingsTests {
    static func folder() throws -> String {
        let folder = TestFiles.directory.appendingPathComponent("keyway-smtp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `config check` with `arguments` and `environment`; answers its status, the JSON it
    /// printed and its standard error.
    static func check(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32, shown: [String: Any], output: String, errors: String)
    {
        let process = try CLIProcess(arguments: ["config", "check"] + arguments, environment: environment, executable: "keyway-server")
        let status = try await process.waitForExit()
        let shown = (try? JSONSerialization.jsonObject(with: Data(process.standardOutput.utf8))) as? [String: Any] ?? [:]
        return (status, shown, process.standardOutput, process.standardError)
    }

    @Test func settingsComeFromOptionsEnvironmentAndFileWithThePasswordMasked() async throws {
        let folder = try Self.folder()
        let file = folder + "/keyway.json"
        try JSONSerialization.data(withJSONObject: [
            "smtpUrl": "smtp://mailer:hunter2@smtp.example.com", "smtpFrom": "Example <no-reply@example.com>",
            "smtpTimeout": 30, "smtpHeloName": "keyway.example.com",
        ]).write(to: URL(fileURLWithPath: file))
        let result = try await Self.check(
            ["--config", file, "--smtp-timeout", "9"], environment: ["KEYWAY_SMTP_TLS": "tls"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.shown["smtpUrl"] as? String == "smtp://mailer:********@smtp.example.com")
        #expect(result.shown["smtpTls"] as? String == "tls", "the environment wins over the file")
        #expect(result.shown["smtpTimeout"] as? Int == 9, "an option wins over the file")
        #expect(result.shown["smtpFrom"] as? String == "Example <no-reply@example.com>")
        #expect(result.shown["smtpHeloName"] as? String == "keyway.example.com")
        #expect(result.shown["smtpRelay"] as? String == "smtps://mailer:********@smtp.example.com:465 (tls)")
        #expect(result.shown["smtpPassword"] as? String == "********")
        #expect(!result.output.contains("hunter2") && !result.errors.contains("hunter2"))

        // The password from a file, the URL without one; the file's first line only.
        let passwordFile = folder + "/smtp-password"
        try Data("s3cret-from-file\nignored\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        let fromFile = try await Self.check(
            ["--smtp-url", "smtp://mailer@smtp.example.com:2587", "--smtp-from", "no-reply@example.com",
             "--smtp-password-file", passwordFile])
        #expect(fromFile.status == 0, "\(fromFile.errors)")
        #expect(fromFile.shown["smtpRelay"] as? String == "smtp://mailer:********@smtp.example.com:2587 (starttls)")
        #expect(!fromFile.output.contains("s3cret-from-file"))
        let fromEnvironment = try await Self.check(
            ["--smtp-url", "smtp://mailer@smtp.example.com", "--smtp-from", "no-reply@example.com"],
            environment: ["KEYWAY_SMTP_PASSWORD": "s3cret-from-env"])
        #expect(fromEnvironment.shown["smtpPassword"] as? String == "********")
        #expect(!fromEnvironment.output.contains("s3cret-from-env"))
    }

    @Test func settingsTheServerCannotSendWithAreRefusedByName() async throws {
        let folder = try Self.folder()
        let cases: [([String], String)] = [
            (["--smtp-from", "no-reply@example.com"], "--smtp-from only applies with --smtp-url"),
            (["--smtp-url", "smtp://smtp.example.com"], "--smtp-url needs --smtp-from"),
            (["--smtp-url", "smtp://smtp.example.com", "--smtp-from", "no-reply@example.com", "--smtp-tls", "ssl"],
             "--smtp-tls must be starttls, tls or none"),
            (["--smtp-url", "smtp://mx.example.com", "--smtp-from", "no-reply@example.com", "--smtp-tls", "none"],
             "--smtp-allow-plaintext"),
            (["--smtp-url", "smtp://u:p@mx.example.com", "--smtp-from", "no-reply@example.com", "--smtp-tls", "none",
              "--smtp-allow-plaintext"], "unencrypted"),
            (["--smtp-url", "http://smtp.example.com", "--smtp-from", "no-reply@example.com"], "smtp://"),
            (["--smtp-url", "smtp://smtp.example.com", "--smtp-from", "not an address"], "--smtp-from must be"),
            (["--smtp-url", "smtp://smtp.example.com", "--smtp-from", "a@example.com", "--smtp-ca-file", folder + "/missing.pem"],
             "cannot be read"),
        ]
        for (arguments, expected) in cases {
            let result = try await Self.check(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.errors.contains(expected), "\(arguments): \(result.errors)")
        }
        // A CA file that is not PEM stops the check too.
        let bad = folder + "/bad.pem"
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: bad))
        let result = try await Self.check(
            ["--smtp-url", "smtp://smtp.example.com", "--smtp-from", "a@example.com", "--smtp-ca-file", bad])
        #expect(result.status != 0)
        #expect(result.errors.contains("not a PEM certificate"), "\(result.errors)")
    }

    @Test func productionModeStartsWithAnSMTPRelayAloneAndNamesItWithoutThePassword() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "mailer:relay-secret-1")) { relay in
            let folder = try Self.folder()
            let process = try CLIProcess(
                arguments: [
                    "serve", "--port", "0", "--production", "--database", "sqlite:\(folder)/keyway.sqlite",
                    "--smtp-url", "smtp://mailer@127.0.0.1:\(relay.port)", "--smtp-from", "no-reply@example.com",
                    "--smtp-ca-file", relay.caFile,
                ],
                environment: ["KEYWAY_MASTER_KEY": TestServer.masterKey.text, "KEYWAY_SMTP_PASSWORD": "relay-secret-1"],
                executable: "keyway-server")
            try await withTestServer(process) { process in
                try await process.waitForError(containing: "keyway-server listening on", timeout: .seconds(60))
                #expect(process.standardError.contains("email goes through the SMTP relay"))
                #expect(process.standardError.contains("smtp://mailer:********@127.0.0.1:\(relay.port) (starttls)"))
                #expect(!process.standardError.contains("relay-secret-1"))
            }
        }
    }
}
