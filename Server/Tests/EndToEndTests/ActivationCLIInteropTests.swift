import Foundation
import KeywayTestSupport
import Testing

/// The `keyway` CLI's activation and signing commands — the SDK's `KeywayActivation` — against the
/// independent PowerAuth 3.3 server side written in Python from the published documents
/// (`Tests/Interop/keyway_activation_cli.py` on `powerauth/reference_server.py`), over real HTTP:
/// the client is checked by the protocol, not by Keyway's own server code.
@Suite("keyway activation and keyway sign against an independent PowerAuth server side")
struct ActivationCLIInteropTests {
    @Test func everyCommandAgainstTheReferenceServerSide() async throws {
        let scratch = TestFiles.directory.appendingPathComponent("activation-interop-\(UUID().uuidString)")
        let (status, output) = try await PythonScript.run(
            "keyway_activation_cli.py", [try CLIProcess.executable.path, scratch.path], timeout: .seconds(300))
        let report = output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status == 0, "\(output)")
        #expect(report.contains("\"ok\": true"), "\(report)")
    }
}
