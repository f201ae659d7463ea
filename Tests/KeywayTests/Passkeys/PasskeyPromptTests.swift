import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Passkey prompts from steps")
struct PasskeyPromptTests {
    @Test func aRegistrationStepIsAPasskeyRegisterPrompt() throws {
        let step = try Steps.decode(Steps.passkeyRegister(skippable: true))
        guard case .passkeyRegister(let purpose, let skippable)? = Prompt(step: step)?.payload else {
            Issue.record("not passkeyRegister")
            return
        }
        #expect(purpose == .enrolment)
        #expect(skippable)
        // The options stay with the step, for the authenticator the flow hands them to.
        let options = try #require(step.payload.passkeyRegister?.options)
        #expect(options.rp == PublicKeyCredentialRelyingParty(id: "example.com", name: "Example"))
        #expect(options.user == PublicKeyCredentialUser(id: Steps.passkeyUserHandle, name: "ada@example.com", displayName: "Ada"))
        #expect(options.challenge == Steps.firstChallenge)
        #expect(options.pubKeyCredParams.map(\.alg) == [-7, -257])
        #expect(options.authenticatorSelection == AuthenticatorSelectionCriteria(residentKey: "required", userVerification: "required"))
        #expect(options.extensions == ["credProps": true])

        guard case .passkeyRegister(_, false)? = Prompt(step: try Steps.decode(Steps.passkeyRegister()))?.payload else {
            Issue.record("a registration without skip is not skippable")
            return
        }
    }

    @Test func aSignatureStepIsAPasskeyAuthenticatePrompt() throws {
        let prompt = Prompt(
            step: try Steps.decode(Steps.passkeyAuthenticate(allow: ["AQID"], purpose: "secondFactor", attempts: 4)))
        #expect(prompt == .passkeyAuthenticate(purpose: .secondFactor, attemptsRemaining: 4))
    }

    @Test(arguments: ["passkeyRegister", "passkeyAuthenticate"])
    func aPasskeyStepWithoutItsPayloadIsUnrecognized(kind: String) throws {
        let step = try Steps.decode(Steps.step(kind: kind, payload: nil, actions: [Steps.cancel]))
        #expect(Prompt(step: step) == .unrecognized(kind: StepKind(rawValue: kind)))
    }
}
