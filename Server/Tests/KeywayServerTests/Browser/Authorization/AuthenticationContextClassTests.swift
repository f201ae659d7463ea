import Testing

@testable import KeywayServer

@Suite("acr: the authentication context class of a sign-in's methods")
struct AuthenticationContextClassTests {
    @Test func theLevelFollowsTheProvedMethods() {
        #expect(AuthenticationContextClass.of(amr: ["otp"]) == "urn:keyway:loa:1fa")
        #expect(AuthenticationContextClass.of(amr: ["pwd"]) == "urn:keyway:loa:1fa")
        #expect(AuthenticationContextClass.of(amr: ["hwk", "user"]) == "urn:keyway:loa:1fa")
        #expect(AuthenticationContextClass.of(amr: ["pwd", "otp", "mfa"]) == "urn:keyway:loa:2fa")
        #expect(AuthenticationContextClass.of(amr: ["guest"]) == "0")
        #expect(AuthenticationContextClass.supported == ["0", "urn:keyway:loa:1fa", "urn:keyway:loa:2fa"])
    }
}
