import Foundation
import KeywayPowerAuth
import Testing

@Suite("Activation and recovery codes")
struct ActivationCodeTests {
    // The Activation-Code document's test values.
    static let documented = [
        "AAAAA-AAAAA-AAAAA-AAAAA", "LLLLL-LLLLL-LLLLL-LQJTA", "KKKKK-KKKKK-KKKKK-KDJNQ",
        "MMMMM-MMMMM-MMMMM-MUTOA", "VVVVV-VVVVV-VVVVV-VTFVA", "55555-55555-55555-55YMA",
        "W65WE-3T7VI-7FBS2-A4OYA", "DD7P5-SY4RW-XHSNB-GO52A", "X3TS3-TI35Z-JZDNT-TRPFA",
        "HCPJX-U4QC4-7UISL-NJYMA", "XHGSM-KYQDT-URE34-UZGWQ", "45AWJ-BVACS-SBWHS-ABANA",
    ]

    @Test func crc16ARCCheckValue() {
        #expect(CRC16.arc(Array("123456789".utf8)) == 0xBB3D)
        #expect(CRC16.arc([UInt8]()) == 0)
    }

    @Test(arguments: documented)
    func documentedCodesAreValid(_ text: String) throws {
        let code = try ActivationCode(text)
        #expect(code.value == text)
        #expect(code.randomBytes.count == 10)
        #expect(try ActivationCode(randomBytes: code.randomBytes).value == text)
        #expect(ActivationCode.isValid(text))
    }

    @Test func randomCodesRoundTrip() throws {
        for _ in 0..<200 {
            let code = ActivationCode.random()
            #expect(code.value.count == 23)
            #expect(try ActivationCode(code.value) == code)
        }
    }

    @Test func constructionMatchesTheDocument() throws {
        // Ten 0x00 bytes: CRC 0, Base32 of twelve zero bytes.
        #expect(try ActivationCode(randomBytes: [UInt8](repeating: 0, count: 10)).value == "AAAAA-AAAAA-AAAAA-AAAAA")
        #expect(throws: PowerAuthError.invalidLength(field: "activation code bytes", expected: "10", actual: 9)) {
            try ActivationCode(randomBytes: [UInt8](repeating: 0, count: 9))
        }
    }

    @Test func invalidCodesAreRefused() {
        #expect(throws: PowerAuthError.checksumMismatch) { try ActivationCode("MMMMM-MMMMM-MMMMM-MUTPA") }
        #expect(throws: PowerAuthError.checksumMismatch) { try ActivationCode("MMMMN-MMMMM-MMMMM-MUTOA") }
        // The same twelve bytes, but the unused bits of the last character set.
        #expect(throws: PowerAuthError.malformedCode("the last character is not one a code can end with")) {
            try ActivationCode("MMMMM-MMMMM-MMMMM-MUTOB")
        }
        #expect(throws: PowerAuthError.invalidLength(field: "activation code", expected: "23", actual: 22)) {
            try ActivationCode("MMMMM-MMMMM-MMMMM-MUTO")
        }
        #expect(throws: PowerAuthError.invalidCharacter("1", position: 2)) { try ActivationCode("M1MMM-MMMMM-MMMMM-MUTOA") }
        #expect(throws: PowerAuthError.invalidCharacter("m", position: 1)) { try ActivationCode("mMMMM-MMMMM-MMMMM-MUTOA") }
        #expect(throws: PowerAuthError.malformedCode("expected '-' at position 6")) { try ActivationCode("MMMMMMMMMMM-MMMMM-MUTOA") }
        #expect(!ActivationCode.isValid(""))
        #expect(!ActivationCode.isValid("MMMMM-MMMMM-MMMMM-MUTÖA"))
    }

    @Test func typedInputIsAutocorrected() throws {
        #expect(try ActivationCode.parseTyped("mmmmm-mmmmm-mmmmm-mut0a").value == "MMMMM-MMMMM-MMMMM-MUTOA")
        #expect(try ActivationCode.parseTyped(" MMMMMMMMMMMMMMMMUT0A ").value == "MMMMM-MMMMM-MMMMM-MUTOA")
        #expect(try ActivationCode.parseTyped("w65we-3t7v1-7fbs2-a40ya").value == "W65WE-3T7VI-7FBS2-A4OYA")
        #expect(ActivationCode.correctTypedCharacter("0") == UInt8(ascii: "O"))
        #expect(ActivationCode.correctTypedCharacter("1") == UInt8(ascii: "I"))
        #expect(ActivationCode.correctTypedCharacter("b") == UInt8(ascii: "B"))
        #expect(ActivationCode.correctTypedCharacter("8") == nil)
        #expect(ActivationCode.correctTypedCharacter("9") == nil)
        #expect(ActivationCode.correctTypedCharacter("é") == nil)
    }

    @Test func typedInputNamesTheBadCharacter() {
        #expect(throws: PowerAuthError.invalidCharacter("8", position: 3)) { try ActivationCode.parseTyped("MM8MM-MMMMM-MMMMM-MUTOA") }
        #expect(throws: PowerAuthError.invalidCharacter("9", position: 23)) { try ActivationCode.parseTyped("MMMMM-MMMMM-MMMMM-MUTO9") }
        #expect(throws: PowerAuthError.invalidCharacter("?", position: 4)) { try ActivationCode.parseTyped("MMM?MMMMMMMMMMMMMUTOA") }
        #expect(throws: PowerAuthError.checksumMismatch) { try ActivationCode.parseTyped("mmmmm-mmmmm-mmmmm-mutoq") }
        #expect(throws: PowerAuthError.malformedCode("unexpected '-' at position 4")) { try ActivationCode.parseTyped("MMM-MMMMMMMMMMMMMMMMMUTOA") }
        #expect(throws: PowerAuthError.invalidLength(field: "activation code", expected: "20 letters", actual: 19)) {
            try ActivationCode.parseTyped("MMMMMMMMMMMMMMMMUTOA".dropLast().description)
        }
    }

    @Test func qrCodeWithAndWithoutSignature() throws {
        let plain = try ActivationQRCode("MMMMM-MMMMM-MMMMM-MUTOA")
        #expect(plain.signature == nil)
        #expect(plain.description == "MMMMM-MMMMM-MMMMM-MUTOA")
        let text = "GYA4L-D4C7K-OP2NV-USYYQ#MEYCIQCihC0iR9m/y0Kq+GcK75DFQVIInekVIWjqw3+QJtilYQIhALHZGVGij7ADgt3xOLZiTBxueIikC8zi8jQaMrDzDkCN"
        let signed = try ActivationQRCode(text)
        #expect(signed.code.value == "GYA4L-D4C7K-OP2NV-USYYQ")
        #expect(signed.signature?.count == 72)
        #expect(signed.description == text)
        #expect(throws: PowerAuthError.invalidBase64(field: "activation signature")) { try ActivationQRCode("MMMMM-MMMMM-MMMMM-MUTOA#not base64!") }
        #expect(throws: PowerAuthError.malformedCode("empty signature after '#'")) { try ActivationQRCode("MMMMM-MMMMM-MMMMM-MUTOA#") }
        #expect(throws: PowerAuthError.malformedCode("more than one '#'")) { try ActivationQRCode("MMMMM-MMMMM-MMMMM-MUTOA#AA==#AA==") }
    }

    @Test func recoveryCodes() throws {
        let recovery = try RecoveryCode.fromQRText("R:45AWJ-BVACS-SBWHS-ABANA")
        #expect(recovery.code.value == "45AWJ-BVACS-SBWHS-ABANA")
        #expect(recovery.qrText == "R:45AWJ-BVACS-SBWHS-ABANA")
        #expect(try RecoveryCode("45AWJ-BVACS-SBWHS-ABANA") == recovery)
        #expect(throws: PowerAuthError.malformedCode("a recovery QR code starts with 'R:'")) {
            try RecoveryCode.fromQRText("45AWJ-BVACS-SBWHS-ABANA")
        }
        #expect(throws: PowerAuthError.checksumMismatch) { try RecoveryCode("R:45AWJ-BVACS-SBWHS-ABAOA") }
    }

    @Test func recoveryPUKs() throws {
        #expect(try RecoveryPUK("1234567890").value == "1234567890")
        #expect(try RecoveryPUK("01234-56789").value == "0123456789")
        #expect(try RecoveryPUK("0123456789").grouped == "01234-56789")
        for bad in ["123456789", "12345678901", "12345_67890", "abcdefghij", "١٢٣٤٥٦٧٨٩٠", ""] {
            #expect(throws: PowerAuthError.malformedPUK) { try RecoveryPUK(bad) }
        }
    }
}
