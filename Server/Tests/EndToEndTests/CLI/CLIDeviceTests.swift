import Foundation
import KeywayProtocol
import KeywayTestSupport
import Testing

/// `keyway devices` and `keyway approve` as real processes against the real server: two CLI homes
/// are two devices of one user.
@Suite("keyway devices and approve: trusted devices and approvals from the terminal")
struct CLIDeviceTests {
    /// Email code then an authenticator, or an approval from a trusted device; devices trusted.
    static var policy: [String: Any] {
        [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp", "deviceApproval"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"], "devices": ["enabled": true, "approvalPollIntervalSeconds": 1],
        ]
    }

    /// One CLI home: one device.
    struct Device {
        let harness: AdaptiveHarness
        let environment: [String: String]

        init(_ harness: AdaptiveHarness) {
            self.harness = harness
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)")
            // KEYWAY_QR: draw QR codes although standard error is a pipe here.
            environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home.path, "KEYWAY_QR": "1"]
        }

        /// Starts `keyway ARGUMENTS --server URL` in this home.
        func start(_ arguments: [String]) throws -> CLIProcess {
            try CLIProcess(arguments: arguments + ["--server", harness.server.baseURL.absoluteString], environment: environment)
        }

        /// Runs a command that reads nothing to its end.
        func run(_ arguments: [String]) async throws -> (status: Int32, process: CLIProcess) {
            let process = try start(arguments)
            process.closeInput()
            return (try await process.waitForExit(), process)
        }
    }

    /// The `count`th code sent to `email`.
    static func code(to email: String, count: Int, _ harness: AdaptiveHarness) async throws -> String {
        for _ in 0..<1000 {
            let messages = try await harness.server.outbox(to: email)
            if messages.count >= count, let code = messages.last?.code { return code }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("No code reached \(email).")
    }

    /// Signs `email` up on `device`: the email code, then the authenticator set-up (after which
    /// the device is trusted without a prompt). Returns the authenticator secret.
    static func signUp(_ email: String, on device: Device) async throws -> String {
        let signup = try device.start(["signup", email])
        signup.type(try await code(to: email, count: 1, device.harness))
        try await signup.waitForError(containing: "otpauth://")
        let line = try #require(signup.standardError.split(separator: "\n").first { $0.hasPrefix("otpauth://") })
        let uri = try #require(URLComponents(string: String(line)))
        let secret = try #require(uri.queryItems?.first { $0.name == "secret" }?.value)
        signup.type(TestAuthenticator.code(secret: secret, at: device.harness.clock.now()))
        #expect(try await signup.waitForExit() == 0, "stderr: \(signup.standardError)")
        return secret
    }

    /// Starts `keyway login` on `device`, enters the code and asks for an approval; returns the
    /// running process once it shows the matching number, with the QR data it printed.
    static func loginAskingForApproval(
        _ email: String, codeCount: Int, on device: Device
    ) async throws -> (login: CLIProcess, matchingNumber: String, qrData: String) {
        let login = try device.start(["login", email])
        login.type(try await code(to: email, count: codeCount, device.harness))
        try await login.waitForError(containing: "Approve on another trusted device")
        let lines = login.standardError.split(separator: "\n")
        #expect(lines.contains { $0.contains("authenticator") })
        let option = try #require(lines.first { $0.contains("Approve on another trusted device") })
        login.type(String(option.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }))
        try await login.waitForError(containing: "Check that your other device shows: ")
        try await login.waitForError(containing: "Waiting until")
        let shown = login.standardError.split(separator: "\n")
        let number = try #require(shown.first { $0.hasPrefix("Check that your other device shows: ") }).dropFirst("Check that your other device shows: ".count)
        let qrData = try #require(shown.first { $0.hasPrefix(ApprovalQRData.prefix) })
        // The QR code is drawn above its text: rows of half blocks, all of one width.
        let drawn = shown.filter { $0.contains("█") }
        #expect(drawn.count > 10)
        #expect(Set(drawn.map(\.count)).count == 1)
        return (login, String(number), String(qrData))
    }

    /// Waits for a login waiting on an approval to exit, moving the server's clock on so that
    /// its polls are not refused as too fast.
    static func waitForExit(_ login: CLIProcess, _ harness: AdaptiveHarness) async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(60)
        while login.exitStatus == nil, ContinuousClock.now < deadline {
            harness.clock.advance(by: 1)
            try await Task.sleep(for: .milliseconds(400))
        }
        return try await login.waitForExit(timeout: .seconds(30))
    }

    /// The device IDs `keyway devices` printed, and the one marked as this device.
    static func listedDevices(_ output: String) -> (ids: [String], this: String?) {
        let headers = output.split(separator: "\n").filter { $0.hasPrefix("dev_") }
        let ids = headers.map { String($0.prefix { !$0.isWhitespace }) }
        let this = headers.first { $0.hasSuffix("(this device)") }.map { String($0.prefix { !$0.isWhitespace }) }
        return (ids, this)
    }

    @Test func aNewDeviceSignsInWithAnApprovalGivenByID() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let email = "two.devices@example.com"
            let laptop = Device(harness)
            let desktop = Device(harness)
            _ = try await Self.signUp(email, on: laptop)

            // The sign-up trusted the laptop.
            let (listed, list) = try await laptop.run(["devices"])
            #expect(listed == 0, "stderr: \(list.standardError)")
            let first = Self.listedDevices(list.standardOutput)
            #expect(first.ids.count == 1 && first.this == first.ids.first, "stdout: \(list.standardOutput)")
            #expect(list.standardOutput.contains("software key"))
            #expect(list.standardOutput.contains("Last used:     never"))

            // Nothing is waiting yet.
            let (idle, empty) = try await laptop.run(["approve"])
            #expect(idle == 0, "stderr: \(empty.standardError)")
            #expect(empty.standardError.contains("No sign-in is waiting for approval."))
            #expect(empty.standardOutput.isEmpty)

            // The desktop signs in and asks for an approval; the laptop lists it and approves it by ID.
            let (login, number, _) = try await Self.loginAskingForApproval(email, codeCount: 2, on: desktop)
            let (shown, pending) = try await laptop.run(["approve"])
            #expect(shown == 0, "stderr: \(pending.standardError)")
            let header = try #require(
                pending.standardOutput.split(separator: "\n").first { $0.hasPrefix("apr_") }, "stdout: \(pending.standardOutput)")
            #expect(header.hasSuffix("matching number \(number)"))
            #expect(pending.standardOutput.contains("Application: "))
            #expect(pending.standardOutput.contains("Client:      "))
            let requestId = String(header.prefix { !$0.isWhitespace })

            let (unknown, wrong) = try await laptop.run(["approve", "apr_unknown"])
            #expect(unknown == 1)
            #expect(wrong.standardError.contains("Error: no sign-in waiting for approval has the ID apr_unknown."))

            let (approved, approve) = try await laptop.run(["approve", requestId])
            #expect(approved == 0, "stderr: \(approve.standardError)")
            #expect(approve.standardError.contains("Approved the sign-in to"))
            #expect(approve.standardError.contains("showing \(number)."))

            #expect(try await Self.waitForExit(login, harness) == 0, "stderr: \(login.standardError)")
            #expect(login.standardError.contains("Signed in as \(email)."))

            // The approval counted as the second factor: the desktop is trusted now too.
            let (again, both) = try await desktop.run(["devices"])
            #expect(again == 0, "stderr: \(both.standardError)")
            let second = Self.listedDevices(both.standardOutput)
            #expect(second.ids.count == 2, "stdout: \(both.standardOutput)")
            #expect(second.this != nil && second.this != first.this)
            #expect(Set(second.ids) == Set(first.ids + [second.this ?? ""]))
        }
    }

    @Test func aWaitingPhoneDeniesThenQRDataApproves() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let email = "qr@example.com"
            let phone = Device(harness)
            let laptop = Device(harness)
            _ = try await Self.signUp(email, on: phone)

            // Denied by a phone already waiting for a request: the waiting sign-in fails.
            let deny = try phone.start(["approve", "--wait", "30", "--deny", "--yes"])
            deny.closeInput()
            try await deny.waitForError(containing: "Waiting up to 30 seconds")
            let (refused, number, refusedQR) = try await Self.loginAskingForApproval(email, codeCount: 2, on: laptop)
            #expect(try await deny.waitForExit() == 0, "stderr: \(deny.standardError)")
            #expect(deny.standardError.contains("Denied the sign-in to Dev application showing \(number)."))
            let requestId = try #require(ApprovalQRData(refusedQR)?.approvalID)
            #expect(deny.standardOutput.hasPrefix("\(requestId)  matching number \(number)"))
            #expect(try await Self.waitForExit(refused, harness) == 1)
            #expect(refused.standardError.contains("[approval_denied]"), "stderr: \(refused.standardError)")
            #expect(!refused.standardError.contains("Check the server URL"))

            // Approved from the QR data the laptop shows; the same data cannot be used twice.
            let (login, _, qrData) = try await Self.loginAskingForApproval(email, codeCount: 3, on: laptop)
            let (approved, approve) = try await phone.run(["approve", "--qr", qrData])
            #expect(approved == 0, "stderr: \(approve.standardError)")
            #expect(approve.standardError.contains("Approved."))
            #expect(try await Self.waitForExit(login, harness) == 0, "stderr: \(login.standardError)")
            #expect(login.standardError.contains("Signed in as \(email)."))
            let (replayed, replay) = try await phone.run(["approve", "--qr", qrData])
            #expect(replayed == 1)
            #expect(replay.standardError.contains("[approval_already_decided]"), "stderr: \(replay.standardError)")

            // Data that is not an approval code is refused before anything is sent.
            let (garbled, garbage) = try await phone.run(["approve", "--qr", "https://example.com"])
            #expect(garbled == 1)
            #expect(garbage.standardError.contains("Error: This is not a Keyway approval code."))
        }
    }

    @Test func accountManagementListsAndRevokesTrustedDevices() async throws {
        var policy = Self.policy
        policy["flowTypes"] = ["signin", "signup", "accountManage"]
        try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
            let email = "manage@example.com"
            let laptop = Device(harness)
            _ = try await Self.signUp(email, on: laptop)

            let account = try laptop.start(["account"])
            try await account.waitForError(containing: "Choose 1")
            var lines = account.standardError.split(separator: "\n").map(String.init)
            #expect(lines.contains("Trusted devices:"))
            #expect(lines.contains { $0.hasPrefix("  - ") && $0.contains("software key, trusted until") })
            func number(of label: String) throws -> String {
                let line = try #require(lines.last { $0.contains(label) })
                return String(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
            }
            account.type(try number(of: "Stop trusting a device"))
            try await account.waitForError(containing: "Device:")
            account.type("1")
            // The menu printed again after the message, not the one before it.
            lines = try await account.waitForError(containing: "Choose 1", after: "The device is no longer trusted.")
                .split(separator: "\n").map(String.init)
            let sentBefore = try await harness.server.outbox(to: email).count
            account.type(try number(of: "Done"))
            // Finishing mints new tokens, so the user confirms who they are first.
            lines = try await account.waitForError(containing: "Choose 1", after: "Confirm it is you:")
                .split(separator: "\n").map(String.init)
            account.type(try number(of: "Email a code"))
            account.type(try await Self.code(to: email, count: sentBefore + 1, harness))
            #expect(try await account.waitForExit() == 0, "stderr: \(account.standardError)")

            let (status, listing) = try await laptop.run(["devices"])
            #expect(status == 0)
            #expect(listing.standardError.contains("No trusted devices.") || listing.standardOutput.contains("No trusted devices."))
        }
    }

    @Test func revokingEveryDeviceBringsBackTheAuthenticator() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let email = "revoke@example.com"
            let laptop = Device(harness)

            // Nobody is signed in yet.
            let (anonymous, nobody) = try await laptop.run(["devices"])
            #expect(anonymous == 1)
            #expect(nobody.standardError.contains("Error: No one is signed in. Run keyway login first."))
            let (stranger, approver) = try await laptop.run(["approve"])
            #expect(stranger == 1)
            #expect(approver.standardError.contains("Run keyway login first, or pass --identifier."))

            let secret = try await Self.signUp(email, on: laptop)

            // A later sign-in proves the device: no second factor.
            let trusted = try laptop.start(["login", email])
            trusted.type(try await Self.code(to: email, count: 2, harness))
            #expect(try await trusted.waitForExit() == 0, "stderr: \(trusted.standardError)")
            #expect(!trusted.standardError.contains("authenticator"))

            let (unknown, wrong) = try await laptop.run(["devices", "revoke", "dev_unknown"])
            #expect(unknown == 1)
            #expect(wrong.standardError.contains("Error: No trusted device of this account has this ID. [not_found]"))

            let (revoked, revoke) = try await laptop.run(["devices", "revoke", "--all"])
            #expect(revoked == 0, "stderr: \(revoke.standardError)")
            let (listed, list) = try await laptop.run(["devices"])
            #expect(listed == 0)
            #expect(list.standardOutput.isEmpty)
            #expect(list.standardError.contains("No trusted devices."))

            // The next sign-in asks for the authenticator again, and trusts the device anew.
            let login = try laptop.start(["login", email])
            login.type(try await Self.code(to: email, count: 3, harness))
            try await login.waitForError(containing: "code from your authenticator app")
            login.type(TestAuthenticator.code(secret: secret, at: harness.clock.now(), offsetSteps: 1))
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            #expect(login.standardError.contains("Signed in as \(email)."))
            let (relisted, relist) = try await laptop.run(["devices"])
            #expect(relisted == 0)
            #expect(Self.listedDevices(relist.standardOutput).this != nil, "stdout: \(relist.standardOutput)")
        }
    }
}
