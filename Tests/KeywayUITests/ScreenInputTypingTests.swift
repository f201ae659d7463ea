import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

@Suite("What an input keeps of what the user types or pastes")
struct ScreenInputTypingTests {
    func input(_ kind: ScreenInput.Kind, type: FieldType = .code) -> ScreenInput {
        ScreenInput(field: Field(name: "f", type: type, required: true), kind: kind)
    }

    @Test func aCodeKeepsItsDigitsUpToItsLength() {
        let code = input(.code(length: 6))
        #expect(code.typed("123456") == "123456")
        #expect(code.typed("123 456") == "123456", "a code pasted with its space")
        #expect(code.typed("Your code is 987654.") == "987654", "a sentence pasted whole")
        #expect(code.typed("1234567") == "123456", "no more than its length")
        #expect(code.typed("12a") == "12")
        #expect(code.typed("١٢٣") == "", "digits 0–9 only, as the server reads them")
        #expect(input(.code(length: nil)).typed("12 34 56 78") == "12345678", "no length: every digit")
    }

    @Test func otherInputsKeepWhatWasTyped() {
        #expect(input(.text, type: .text).typed("Ada 12") == "Ada 12")
        #expect(input(.email, type: .email).typed(" ada@example.com") == " ada@example.com")
        #expect(input(.password, type: .password).typed("p4ss w0rd") == "p4ss w0rd")
    }
}
