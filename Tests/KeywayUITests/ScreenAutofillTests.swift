import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// The system's autofill for each input: the server's `autocomplete` hint first, else the kind.
@Suite("Autofill of screen inputs")
struct ScreenAutofillTests {
    func input(_ type: FieldType, _ kind: ScreenInput.Kind, autocomplete: String? = nil) -> ScreenInput {
        ScreenInput(field: Field(name: "f", type: type, required: true, autocomplete: autocomplete), kind: kind)
    }

    @Test func theServersHintComesFirst() {
        #expect(input(.code, .code(length: 6), autocomplete: "one-time-code").autofill == .oneTimeCode)
        #expect(input(.text, .text, autocomplete: "username webauthn").autofill == .username)
        #expect(input(.email, .email, autocomplete: "email").autofill == .email)
        #expect(input(.password, .password, autocomplete: "current-password").autofill == .password)
        #expect(input(.password, .newPassword(minimumLength: 12), autocomplete: "new-password").autofill == .newPassword)
        #expect(input(.phone, .phone, autocomplete: "tel").autofill == .phone)
    }

    @Test func withoutAHintTheKindDecides() {
        #expect(input(.code, .code(length: 6)).autofill == .oneTimeCode)
        #expect(input(.password, .newPassword(minimumLength: nil)).autofill == .newPassword)
        #expect(input(.phone, .phone).autofill == .phone)
        #expect(input(.text, .text).autofill == nil)
        #expect(input(.text, .text, autocomplete: "off").autofill == nil)
    }
}
