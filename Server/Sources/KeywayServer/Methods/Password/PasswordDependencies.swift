/// The password hashing the server gives the password methods: scrypt (``ScryptPasswords``)
/// unless it was configured with another.
enum PasswordHashingKey: MethodDependencyKey {
    static let defaultValue: any PasswordHashing = ScryptPasswords()
}

extension PasswordGate: MethodDependencyKey {
    /// The bound of the server's default limits (``FlowLimits``).
    static let defaultValue = PasswordGate(
        capacity: FlowLimits().maxConcurrentPasswordChecks, perNetwork: FlowLimits().maxConcurrentPasswordChecksPerNetwork)
}

extension MethodDependencies {
    /// Hashes and checks passwords.
    var passwords: any PasswordHashing {
        get { self[PasswordHashingKey.self] }
        set { self[PasswordHashingKey.self] = newValue }
    }

    /// Bounds the password hashing in progress or waiting, overall and per network.
    var passwordGate: PasswordGate {
        get { self[PasswordGate.self] }
        set { self[PasswordGate.self] = newValue }
    }
}
