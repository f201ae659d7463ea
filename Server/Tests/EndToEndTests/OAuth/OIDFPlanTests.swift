import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The OpenID Foundation's OP certification plans that need no human — Basic, Config, Dynamic,
/// Form Post and RP-Initiated Logout — module by module (`Tests/Interop/oidf_plans.py`: Authlib,
/// joserfc and Selenium in a real Chromium, every client registered through dynamic client
/// registration). Every module passes, except those skipped for a feature Keyway does not offer,
/// which are exactly the ones listed here (docs/hosted-login.md says why). On SQLite only: the
/// plans check the protocol, which the storage does not change.
@Suite(
    "The OpenID Foundation's OP certification plans, module by module", .serialized,
    .enabled(if: BrowserAvailability.enabled && !TestDatabase.isPostgres, "Chromium and chromedriver are not installed"))
struct OIDFPlanTests {
    /// The modules skipped, with the feature they need that Keyway does not offer.
    static let skipped: [String: String] = [
        "oidcc-scope-address": "no address scope",
        "oidcc-ensure-request-object-with-redirect-uri": "no request objects",
        "oidcc-userinfo-rs256": "no signed UserInfo",
        "oidcc-registration-jwks-uri": "keys are registered as jwks",
        "oidcc-registration-sector-uri": "no pairwise subjects",
        "oidcc-registration-sector-bad": "no pairwise subjects",
        "oidcc-idtoken-unsigned": "no unsigned ID tokens",
        "oidcc-refresh-token-rp-key-rotation": "no registration management (RFC 7592)",
    ]

    @Test(.timeLimit(.minutes(30)))
    func everyModulePassesOrIsSkippedForAFeatureNotOffered() async throws {
        let clock = ManualClock()
        // The plans sign one user in well over a hundred times from one address, as the suite
        // does: the per-identifier limits are raised for it, as an operator certifying would.
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerIdentifier = 10_000
        limits.rateLimits.codeSendsPerIdentifier = 10_000
        limits.rateLimits.codeChecksPerIdentifier = 10_000
        try await withTestServer(
            TestServer.start(clock: clock, limits: limits, adminToken: testAdminToken, idleTimeout: 30)
        ) { server in
            try await server.setPolicy(["primaryMethods": ["emailOtp"]])
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId).revealed
            let report = try await Self.run(server, clock: clock, registrationToken: token)
            let plans = try #require(report["plans"] as? [String: [String: [String: Any]]], "\(report)")
            #expect(Set(plans.keys) == ["basic", "config", "dynamic", "form-post", "rp-logout"], "\(report["error"] ?? "")")
            var skipped: Set<String> = []
            for (plan, modules) in plans {
                for (name, result) in modules {
                    switch result["result"] as? String {
                    case "passed": break
                    case "skipped": skipped.insert(name)
                    default:
                        Issue.record(
                            "\(plan) \(name): \(result["reason"] ?? "")\n\(result["page"] ?? "")\n\(result["trace"] ?? "")")
                    }
                }
            }
            #expect(skipped == Set(Self.skipped.keys), "skipped: \(skipped.sorted())")
            print("OIDF plans took \(report["seconds"] ?? "?") s: \(plans.mapValues(\.count))")
        }
    }

    /// Runs the plans against `server`, answering the runner's pauses (numbered `NNN-NAME`):
    /// `advance-N` (the clock),
    /// `relax-pkce` (the client in the payload may send neither PKCE nor a nonce) and
    /// `rotate-keys` (both signing keys rotated without pre-publication).
    static func run(_ server: TestServer, clock: ManualClock, registrationToken: String) async throws -> [String: Any] {
        let directory = TestFiles.directory.appendingPathComponent("oidf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = [
            "--issuer", server.baseURL.absoluteString, "--registration-token", registrationToken,
            "--email", "oidf@example.com", "--server-time", String(clock.now().timeIntervalSince1970),
            "--pause-dir", directory.path,
        ]
        let ended = LockedFlag()
        let child = Task {
            defer { ended.set() }
            return try await PythonScript.run("oidf_plans.py", arguments, separateErrors: true, timeout: .seconds(1500))
        }
        var answered: Set<String> = []
        while !ended.isSet {
            var pending: URL?
            try await waitUntil("the plans pause or end", timeout: .seconds(600)) {
                pending = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                    .first { $0.pathExtension == "ready" && !answered.contains($0.lastPathComponent) }
                return pending != nil || ended.isSet
            }
            guard let pending else { break }
            answered.insert(pending.lastPathComponent)
            // `NNN-NAME`: the runner numbers its pauses, as one comes in several modules.
            let file = pending.deletingPathExtension().lastPathComponent
            let name = file.split(separator: "-", maxSplits: 1).last.map(String.init) ?? file
            let payload = String(decoding: try Data(contentsOf: pending), as: UTF8.self)
            switch name {
            case "relax-pkce":
                let relaxed = try await server.admin("PATCH", "/admin/applications/\(payload)", ["requirePkce": false])
                #expect(relaxed.status == 200, "\(relaxed.json)")
            case "rotate-keys":
                for algorithm in ["ES256", "RS256"] {
                    let rotated = try await server.admin(
                        "POST", "/admin/signing-keys/rotate", ["algorithm": algorithm, "prePublicationSeconds": 0])
                    #expect(rotated.status == 201, "\(rotated.json)")
                }
            case let advance where advance.hasPrefix("advance-"):
                clock.advance(by: try #require(TimeInterval(advance.dropFirst("advance-".count))))
            default:
                Issue.record("Unknown pause \(name)")
            }
            try Data().write(to: directory.appendingPathComponent("\(file).go"))
        }
        let (status, output) = try await child.value
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        #expect(report["error"] == nil, "\(report["error"] ?? "")")
        if status != 0 { print("oidf_plans.py exited \(status); failed: \(report["failed"] ?? "?")") }
        return report
    }
}

/// Whether a child process has ended, read while the test waits on something else.
private final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
