import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Prompts from steps")
struct PromptMappingTests {
    @Test func enterCodeByEmailAndSms() throws {
        for channel in ["email", "sms"] {
            let prompt = Prompt(step: try Steps.decode(Steps.enterCode(channel: channel)))
            guard case .enterCode(let destination, let length, _, _, let decodedChannel)? = prompt?.payload else {
                Issue.record("not enterCode: \(String(describing: prompt))")
                continue
            }
            #expect(destination == "a•••@example.com")
            #expect(length == 6)
            #expect(decodedChannel == CodeChannel(rawValue: channel))
        }
    }

    @Test func selectMethod() throws {
        let prompt = Prompt(step: try Steps.decode(Steps.selectMethod(purpose: "secondFactor", skippable: true)))
        guard case .selectMethod(let methods, let purpose, let skippable)? = prompt?.payload else {
            Issue.record("not selectMethod: \(String(describing: prompt))")
            return
        }
        #expect(methods.map(\.id) == ["m_email", "m_sms", "m_totp"])
        #expect(methods.map(\.type) == [.emailOtp, .smsOtp, .totp])
        #expect(methods[0].destination == "a•••@example.com")
        #expect(methods[2].destination == nil)
        #expect(purpose == .secondFactor)
        #expect(skippable)
    }

    @Test func setupSms() throws {
        #expect(Prompt(step: try Steps.decode(Steps.setupSms())) == .setupSms(existingPhone: "+•••••••0123"))
    }

    @Test func setupTotp() throws {
        let prompt = Prompt(step: try Steps.decode(Steps.setupTotp()))
        #expect(
            prompt
                == .setupTotp(
                    secret: Sensitive(Steps.totpSecret), otpauthUrl: Sensitive(Steps.otpauthUrl), period: 30, digits: 6,
                    algorithm: "SHA1"))
        // The secret never shows in a description of the prompt.
        #expect(!String(describing: prompt).contains(Steps.totpSecret))
    }

    @Test func enterTotp() throws {
        #expect(Prompt(step: try Steps.decode(Steps.enterTotp())) == .enterTotp(digits: 6, purpose: .secondFactor))
    }

    @Test func enterPassword() throws {
        #expect(
            Prompt(step: try Steps.decode(Steps.enterPassword())) == .enterPassword(purpose: .create, minimumLength: 12))
    }

    @Test func formTakesTheFieldsOfSubmitForm() throws {
        let step = try Steps.decode(Steps.form())
        guard case .form(let formId, let title, let fields)? = Prompt(step: step)?.payload else {
            Issue.record("not a form")
            return
        }
        #expect(formId == "profile")
        #expect(title == "About you")
        #expect(fields.map(\.name) == ["displayName", "country", "newsletter", "terms", "zip", "formVersion"])
        #expect(fields == step.action(named: "submitForm")?.fields)
    }

    @Test func manageAccountOperationsAreTheActionsButCancel() throws {
        guard case .manageAccount(let methods, let operations)? = Prompt(step: try Steps.decode(Steps.manageAccount()))?.payload
        else {
            Issue.record("not manageAccount")
            return
        }
        #expect(methods.map(\.type) == [.emailOtp, .totp])
        #expect(methods[1].isSecondFactor)
        #expect(methods[0].detail == "a•••@example.com")
        #expect(operations.map(\.name) == ["removeTotp", "setupSms", "finish"])
    }

    @Test(arguments: ["enterCode", "selectMethod", "setupSms", "setupTotp", "enterTotp", "enterPassword", "form", "manageAccount"])
    func knownKindWithoutPayloadIsUnrecognized(kind: String) throws {
        let step = try Steps.decode(Steps.step(kind: kind, payload: nil, actions: [Steps.cancel]))
        #expect(Prompt(step: step) == .unrecognized(kind: StepKind(rawValue: kind)))
    }

    @Test func formWithoutSubmitFormIsUnrecognized() throws {
        let step = try Steps.decode(
            Steps.step(kind: "form", payload: #"{"formId": "profile", "title": "About you"}"#, actions: [Steps.cancel]))
        #expect(Prompt(step: step) == .unrecognized(kind: .form))
    }

    @Test func unknownKindIsUnrecognizedAndCompletedHasNoPrompt() throws {
        let step = try Steps.decode(
            Steps.step(kind: "pushChallenge", payload: #"{"pollInterval": 2}"#, actions: [Steps.cancel]))
        #expect(Prompt(step: step) == .unrecognized(kind: StepKind(rawValue: "pushChallenge")))
        #expect(Prompt(step: try Steps.decode(Steps.completed)) == nil)
    }
}
