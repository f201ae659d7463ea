import KeywayPowerAuth
import KeywayPowerAuthWire
import Testing

@Suite("PowerAuth endpoints, declared once")
struct PowerAuthEndpointTests {
    static let possession: PowerAuthSignatureFactors = .possession
    static let knowledge: PowerAuthSignatureFactors = [.possession, .knowledge]
    static let biometry: PowerAuthSignatureFactors = [.possession, .biometry]
    static let all: PowerAuthSignatureFactors = [.possession, .knowledge, .biometry]

    @Test func twoFactorsMeansPossessionAndAnother() {
        let rule = PowerAuthFactorRule.twoFactors
        #expect(!rule.accepts(Self.possession))
        #expect(rule.accepts(Self.knowledge))
        #expect(rule.accepts(Self.biometry))
        #expect(rule.accepts(Self.all))
        #expect(!rule.accepts([.knowledge, .biometry]), "Without possession no signature counts.")
    }

    @Test func atLeastNamesTheFactorsAndAnyAcceptsEverySignature() {
        let rule = PowerAuthFactorRule.atLeast([.possession, .knowledge])
        #expect(!rule.accepts(Self.biometry))
        #expect(rule.accepts(Self.knowledge))
        #expect(rule.accepts(Self.all))
        #expect(rule.leastCount == 2)
        #expect(PowerAuthFactorRule.any.accepts(Self.possession))
        #expect(PowerAuthFactorRule(required: .possession, leastCount: 3).accepts(Self.all))
        #expect(!PowerAuthFactorRule(required: .possession, leastCount: 3).accepts(Self.knowledge))
    }

    /// The standard endpoints as every PowerAuth implementation signs them: the path, the URI
    /// identifier (the path without `/v3`), and the body's `sharedInfo1` when it is encrypted.
    @Test func theStandardEndpointsSignTheirURIIdentifiers() {
        let endpoints: [PowerAuthEndpoint] = [
            .signatureValidate, .activationRemove, .vaultUnlock, .tokenCreate, .tokenRemove, .recoveryConfirm,
        ]
        for endpoint in endpoints {
            #expect(endpoint.path.replacingOccurrences(of: "/pa/v3/", with: "/pa/") == endpoint.uriId)
        }
        #expect(PowerAuthEndpoint.vaultUnlock.sharedInfo1 == .vaultUnlock)
        #expect(PowerAuthEndpoint.tokenCreate.sharedInfo1 == .createToken)
        #expect(PowerAuthEndpoint.recoveryConfirm.sharedInfo1 == .confirmRecoveryCode)
        #expect(PowerAuthEndpoint.activationRemove.sharedInfo1 == nil)
        #expect(PowerAuthEndpoint.vaultUnlock.factors == .twoFactors)
        #expect(!PowerAuthEndpoint.recoveryConfirm.factors.accepts(Self.biometry))
    }
}
