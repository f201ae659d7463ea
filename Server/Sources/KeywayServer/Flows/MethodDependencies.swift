/// A key of ``MethodDependencies``: the type of what a method needs from the server, and what it
/// uses when the server provided none.
protocol MethodDependencyKey {
    associatedtype Value: Sendable
    /// What the method uses when the server provided nothing under this key.
    static var defaultValue: Value { get }
}

/// What the methods need from the server that runs them — password hashing and its bound, App
/// Attest checks, the upstream providers' caches — each under a key its method declares in its
/// own folder. The server fills it when it starts; the engine carries it to the methods
/// (``MethodContext/dependencies``, ``StagedMethodInput/dependencies``) and names none of them.
struct MethodDependencies: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    init() {}

    /// What the server provided under `key`, or the key's default.
    subscript<Key: MethodDependencyKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
