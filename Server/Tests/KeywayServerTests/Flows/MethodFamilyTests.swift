import KeywayProtocol
import Testing

@testable import KeywayServer

/// The upstream providers are one family of methods: the registry resolves each member by its
/// `federation:<id>`, and the family takes part in the capabilities the engine asks, as a
/// registered method does, without the engine naming it.
@Suite("A method family in the registry")
struct MethodFamilyTests {
    let registry = MethodRegistry.standard

    @Test func theRegistryResolvesAFamilysMembers() {
        let member = registry.module(AuthenticationMethod(rawValue: "federation:acme"))
        #expect((member as? FederationMethod)?.providerId == "acme")
        #expect(registry.module(AuthenticationMethod(rawValue: "federation:A")) == nil, "Not a provider's ID.")
        #expect(registry.module(AuthenticationMethod(rawValue: "nothing")) == nil)
        #expect(registry.module(.passkey) is PasskeyMethod)
    }

    @Test func theFamilyTakesPartInTheCapabilitiesTheEngineAsks() {
        #expect(registry.families.map(\.id) == [FederationMethod.family.id])
        #expect(registry.configurableMethods.last is FederationMethod)
        #expect(registry.addressVerificationObservers.contains { $0 is FederationMethod })
        #expect(registry.accountOperationFamilies.map(\.id) == [FederationMethod.family.id])
        #expect(registry.externalIdentities.map(\.id) == [FederationMethod.family.id])
        let page = registry.accountPageMethods.map(\.id)
        #expect(page.contains(.passkey) && page.contains(.trustedDevice) && page.contains(FederationMethod.family.id))
        // The family is not one of the registered methods: its members are per application.
        #expect(!registry.all.contains { $0 is FederationMethod })
    }
}
