import Testing

@testable import KeywayServer

@Suite("Method dependencies: each under its method's key, the key's default until the server gives one")
struct MethodDependenciesTests {
    private enum Word: MethodDependencyKey {
        static let defaultValue = "default"
    }

    private enum Count: MethodDependencyKey {
        static let defaultValue = 0
    }

    @Test func aKeyReadsItsDefaultUntilSetAndKeysStayApart() {
        var dependencies = MethodDependencies()
        #expect(dependencies[Word.self] == "default" && dependencies[Count.self] == 0)
        dependencies[Word.self] = "given"
        #expect(dependencies[Word.self] == "given")
        #expect(dependencies[Count.self] == 0)
        dependencies[Count.self] = 3
        #expect(dependencies[Word.self] == "given" && dependencies[Count.self] == 3)
    }

    @Test func theServersDependenciesAreTheOnesItGave() {
        var dependencies = MethodDependencies()
        #expect(dependencies.appAttest == nil)
        dependencies.passwordGate = PasswordGate(capacity: 3, perNetwork: 1)
        #expect(dependencies.passwordGate.capacity == 3)
    }
}
