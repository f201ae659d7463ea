import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

@Suite("Screens: what a renderer that asks in words needs besides the buttons")
struct ScreenDetailTests {
    @Test func aMethodChoiceSaysWhatItIsForAndWhereEachCodeGoes() throws {
        let choice = Steps.screen(
            try Steps.step(
                "selectMethod",
                payload: #"{"methods":[{"id":"emailOtp","type":"emailOtp","label":"Email a code","destination":"a•••@example.com"}],"purpose":"reverification","skippable":false}"#,
                actions: [Steps.action("selectMethod", "method", label: "Continue")]))
        #expect(choice.instruction == "Confirm it is you")
        #expect(choice.action("selectMethod:emailOtp")?.label == "Email a code (a•••@example.com)")
        #expect(choice.secondaryActions.map(\.id) == ["selectMethod:emailOtp", "cancel"], "not skippable")
    }

    @Test func theNumberOnTheAccountAndFewAttemptsLeftAreSaid() throws {
        let phone = Steps.screen(
            try Steps.step(
                "setupSms", payload: #"{"existingPhone":"+1••••••0166"}"#,
                actions: [Steps.action("submitPhone", "phone", label: "Send a code", fields: #"[{"name":"phone","type":"phone","required":true,"value":"+14155550166"}]"#)]))
        #expect(phone.messages.map(\.code) == ["existingPhone"])
        #expect(phone.messages.first?.text.contains("+1••••••0166") == true)
        #expect(phone.inputs.first?.initialValue == "+14155550166")

        let totp = Steps.screen(
            try Steps.step(
                "enterTotp", payload: #"{"digits":6,"period":30,"purpose":"secondFactor","attemptsRemaining":1}"#,
                actions: [Steps.action("submitTotp", "totp", label: "Continue", fields: Steps.codeField)]))
        #expect(totp.messages == [ScreenMessage(level: .warning, code: "attemptsRemaining", text: "1 attempt left.")])
    }

    @Test func anAuthenticatorKeyWithUnusualSettingsSaysThem() throws {
        let usual = Steps.screen(
            try Steps.step(
                "setupTotp",
                payload: #"{"secret":"JBSWY3DPEHPK3PXP","otpauthUrl":"otpauth://totp/a?secret=JBSWY3DPEHPK3PXP","period":30,"digits":6,"algorithm":"SHA1"}"#,
                actions: [Steps.action("submitTotp", "totp", label: "Verify", fields: Steps.codeField)]))
        #expect(usual.messages.isEmpty)
        let unusual = Steps.screen(
            try Steps.step(
                "setupTotp",
                payload: #"{"secret":"JBSWY3DPEHPK3PXP","otpauthUrl":"otpauth://totp/a?secret=JBSWY3DPEHPK3PXP","period":60,"digits":8,"algorithm":"SHA256"}"#,
                actions: [Steps.action("submitTotp", "totp", label: "Verify", fields: Steps.codeField)]))
        #expect(unusual.messages.map(\.code) == ["totpParameters"])
        #expect(unusual.messages.first?.text.contains("SHA256, 8 digits and a new code every 60 seconds") == true)
    }

    @Test func anAccountWithDeviceTrustListsItsDevicesEvenNone() throws {
        let screen = Steps.screen(
            try Steps.step(
                "manageAccount",
                payload: #"{"methods":[{"type":"totp","label":"Authenticator app","isSecondFactor":true}],"devices":[]}"#,
                actions: [Steps.action("finish", "manage/finish", label: "Done")]))
        #expect(
            screen.displays == [
                .list(title: "Sign-in methods", items: [ScreenListItem(title: "Authenticator app", detail: "second factor")]),
                .list(title: "Trusted devices", items: []),
            ])
    }

    @Test func inputsCheckANewPasswordsLengthAndSendToggleValuesAsTheServerReadsThem() throws {
        let password = ScreenInput(
            field: Field(name: "password", type: .password, required: true, label: "Password"),
            kind: .newPassword(minimumLength: 12))
        #expect(password.validate("short") == "Use at least 12 characters.")
        #expect(password.validate("long enough passphrase") == nil)
        #expect(password.validate(nil) == "This field is required.")

        let news = ScreenInput(field: Field(name: "news", type: .checkbox, required: false, label: "News"), kind: .toggle)
        #expect(news.submittedValue(for: "y") == "true")
        #expect(news.submittedValue(for: nil) == "false")
        #expect(news.validate("perhaps") == "Answer yes or no.")
    }
}
