import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Activation codes, QR codes and recovery codes")
struct CodeParsingTests {
    let code = try! ActivationCode(randomBytes: Array(repeating: UInt8(0x5A), count: 10))

    @Test func typedCodeIsAutocorrected() throws {
        let typed = code.value.lowercased().replacingOccurrences(of: "o", with: "0").replacingOccurrences(of: "i", with: "1")
        guard case let .activationCode(parsed, signature, otp) = try ActivationCredentials.typedCode("  " + typed + " ", otp: "9999")
        else { Issue.record("not a code"); return }
        #expect(parsed == code)
        #expect(signature == nil)
        #expect(otp == "9999")
        // Without the dashes too.
        guard case let .activationCode(undashed, _, _) = try ActivationCredentials.typedCode(code.value.replacingOccurrences(of: "-", with: ""))
        else { Issue.record("not a code"); return }
        #expect(undashed == code)
    }

    @Test func typedCodeErrorsSayWhatIsWrong() {
        var wrong = Array(code.value)
        wrong[7] = "8"   // '8' is no Base32 character and no correction makes it one.
        #expect(throws: ActivationError.invalidActivationCode(.invalidCharacter("8", position: 8))) {
            try ActivationCredentials.typedCode(String(wrong))
        }
        let error = #expect(throws: ActivationError.self) { try ActivationCredentials.typedCode(String(wrong)) }
        #expect(error?.description.contains("position 8") == true)
        #expect(error?.code == "invalid_activation_code")
        #expect(error?.recovery == .retry)

        // One letter changed: the checksum catches it.
        var mistyped = Array(code.value)
        mistyped[0] = mistyped[0] == "A" ? "B" : "A"
        #expect(throws: ActivationError.invalidActivationCode(.checksumMismatch)) { try ActivationCredentials.typedCode(String(mistyped)) }
        #expect(throws: ActivationError.self) { try ActivationCredentials.typedCode("AAAAA-AAAAA") }
        #expect(throws: ActivationError.self) { try ActivationCredentials.typedCode("AAAAA-AAAAA-AAAAA-AAAA-A") }
    }

    @Test func scannedCodeCarriesItsSignature() throws {
        let master = P256.Signing.PrivateKey()
        let signature = try ActivationSignature.sign(code: code, masterPrivateKey: master)
        guard case let .activationCode(parsed, parsedSignature, _) = try ActivationCredentials.scannedCode(
            code.value + "#" + signature.base64EncodedString() + "\n")
        else { Issue.record("not a code"); return }
        #expect(parsed == code)
        #expect(parsedSignature == signature)
        #expect(throws: ActivationError.self) { try ActivationCredentials.scannedCode(code.value + "#") }
        #expect(throws: ActivationError.self) { try ActivationCredentials.scannedCode(code.value + "#not base64!") }
        #expect(throws: ActivationError.self) { try ActivationCredentials.scannedCode(code.value + "#a#b") }
    }

    @Test func scannedCodeWithAWrongSignatureIsRefusedBeforeAnyRequest() async throws {
        let peer = ProtocolPeer()
        let activation = DeviceActivation(
            configuration: try peer.configuration(), appIdentifier: "test", storage: InMemorySecureStorage(),
            options: DeviceActivationOptions(transport: NoNetwork()))
        let other = P256.Signing.PrivateKey()
        let forged = try ActivationSignature.sign(code: code, masterPrivateKey: other)
        await #expect(throws: ActivationError.activationSignatureInvalid) {
            try await activation.create(with: .scannedCode(code.value + "#" + forged.base64EncodedString()))
        }
        // The master key's own signature of another code does not fit this code either.
        let another = ActivationCode.random()
        let signatureOfAnother = try ActivationSignature.sign(code: another, masterPrivateKey: peer.masterKey)
        await #expect(throws: ActivationError.activationSignatureInvalid) {
            try await activation.create(with: .scannedCode(code.value + "#" + signatureOfAnother.base64EncodedString()))
        }
    }

    @Test func recoveryCodesAndPUKs() throws {
        guard case let .recovery(recovery, puk) = try ActivationCredentials.recovery(code: "R:" + code.value, puk: "01234-56789")
        else { Issue.record("not recovery"); return }
        #expect(recovery.code == code)
        #expect(puk.value == "0123456789")
        #expect(throws: ActivationError.invalidRecoveryCode(.malformedPUK)) { try ActivationCredentials.recovery(code: code.value, puk: "12345") }
        #expect(throws: ActivationError.self) { try ActivationCredentials.recovery(code: "R:ABC", puk: "0123456789") }
    }

    @Test func configurationReadsTheAdminJSON() throws {
        let peer = ProtocolPeer()
        let configuration = try peer.configuration()
        #expect(configuration.configID == "cfg_peer")
        #expect(configuration.maxFailedAttempts == 5)
        #expect(configuration.recoveryEnabled == true)
        #expect(configuration.baseURL.absoluteString == "https://peer.example")
        let v1 = try PowerAuthConfiguration(baseURL: URL(string: "https://peer.example/v1/")!, json: peer.configurationJSON)
        #expect(v1.baseURL == configuration.baseURL)

        #expect(throws: ActivationError.invalidConfiguration("The PowerAuth configuration has no applicationSecret.")) {
            try PowerAuthConfiguration(baseURL: peer.baseURL, json: Data(#"{"configId":"c","applicationKey":"AAAA","masterServerPublicKey":"AAAA"}"#.utf8))
        }
        #expect(throws: ActivationError.self) {
            try PowerAuthConfiguration(
                baseURL: peer.baseURL, configID: "c", applicationKey: "AAAA", applicationSecret: "AAAA", masterServerPublicKey: "AAAA")
        }
        #expect(throws: ActivationError.self) {
            try PowerAuthConfiguration(
                baseURL: URL(string: "ftp://x")!, configID: "c", applicationKey: "AAAA", applicationSecret: "AAAA",
                masterServerPublicKey: peer.masterKey.publicKey.x963Representation.base64EncodedString())
        }
    }

    @Test func factorNames() throws {
        #expect(try FactorAuthentication(typeName: "possession_knowledge", password: "1").factors == [.possession, .knowledge])
        #expect(try FactorAuthentication(typeName: "possession_knowledge_biometry", password: "1").factors.count == 3)
        #expect(throws: ActivationError.self) { try FactorAuthentication(typeName: "possession_knowledge") }
        #expect(throws: ActivationError.self) { try FactorAuthentication(typeName: "knowledge_possession", password: "1") }
        #expect(throws: ActivationError.self) { try FactorAuthentication(typeName: "") }
    }
}
