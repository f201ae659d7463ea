import Crypto
import Foundation
@testable import Keyway
import KeywayProtocol

/// An authenticator app for the tests: RFC 6238 TOTP (SHA-1, 6 digits, 30 s) from a Base32 secret,
/// written from the RFC independently of the server's implementation.
enum TestAuthenticator {
    static func code(secret: String, at time: Date, offsetSteps: Int = 0) -> String {
        let key = SymmetricKey(data: base32Decode(secret))
        var counter = (UInt64(time.timeIntervalSince1970) / 30 &+ UInt64(bitPattern: Int64(offsetSteps))).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        let offset = Int(mac[19] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let text = String(value % 1_000_000)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    static func base32Decode(_ text: String) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { continue }
            value = (value << 5) | index
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((value >> (bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return bytes
    }
}

extension FlowUpdate {
    /// The prompt, if this is one.
    var prompt: Prompt? {
        if case .prompt(_, let prompt) = self { return prompt }
        return nil
    }

    /// The methods of a `selectMethod` prompt.
    var methodChoice: (methods: [MethodOption], purpose: MethodPurpose, skippable: Bool)? {
        if case (let methods, let purpose, let skippable)? = prompt?.selectMethod { return (methods, purpose, skippable) }
        return nil
    }

    /// The secret of a `setupTotp` prompt.
    var totpSetup: (secret: String, otpauthUrl: String)? {
        if case (let secret, let url, _, _, _)? = prompt?.setupTotp { return (secret.revealed, url.revealed) }
        return nil
    }

    /// The step's kind, for prompts.
    var stepKind: StepKind? { promptContext?.step.kind }
}

/// The admin credential the adaptive-flow tests start their servers with.
let testAdminToken = "kad_test-admin-token-0123456789abcdefghijklmnop"

extension TestServer {
    /// Replaces the test application's policy through the admin API; fails the test on refusal.
    func setPolicy(_ policy: [String: Any]) async throws {
        let response = try await request(
            "PUT", "/admin/applications/\(TestServer.configId)/policy",
            headers: ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: policy))
        guard response.status == 200 else {
            throw TestFailure("The policy was refused: \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    /// Calls the admin API and answers the JSON body.
    func admin(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> (status: Int, json: [String: Any]) {
        let response = try await request(
            method, path, headers: ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"],
            body: try body.map { try JSONSerialization.data(withJSONObject: $0) })
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}
