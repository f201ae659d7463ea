import Testing

@testable import KeywayServer

/// A code's message says what the code is for: a sign-in, a sign-up, or confirming the user.
@Suite("Code messages")
struct MessageTemplateTests {
    @Test func eachPurposeHasItsOwnWords() {
        let signIn = MessageTemplates.signInCode("123456", minutes: 10, template: nil, application: "Acme")
        #expect(signIn.subject == "Your sign-in code" && signIn.body.hasPrefix("Your sign-in code is 123456."))
        let signUp = MessageTemplates.signInCode("123456", minutes: 10, template: nil, application: "Acme", purpose: .signUp)
        #expect(signUp.subject == "Your sign-up code" && signUp.body.contains("create an account"))
        let check = MessageTemplates.signInCode("123456", minutes: 10, template: nil, application: "Acme", purpose: .verification)
        #expect(check.subject == "Your verification code" && check.body.hasPrefix("Your verification code is 123456."))
        #expect([signIn, signUp, check].allSatisfy { $0.body.contains("10 minutes") })
    }
}
