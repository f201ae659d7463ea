/// Settings a method keeps in the application's policy, under a key of its own (`password`,
/// `passkeys`, …).
///
/// The policy decodes, encodes and compares them by key without naming them; the method lists
/// them as a ``ConfigurableMethod``, validates them there, and gives the policy a typed accessor
/// in its own folder (`policy.passkeys`).
protocol MethodSettings: Codable, Sendable, Equatable {
    /// Their key in the policy's JSON.
    static var policyKey: String { get }
    /// What a policy without them holds and shows: the defaults, or `nil` when their absence has
    /// a meaning of its own (the method's defaults, decided where the issuer is known).
    static var whenAbsent: Self? { get }
}

/// Settings every policy holds: their defaults when none were set, and shown so.
protocol DefaultedMethodSettings: MethodSettings {
    /// What a policy without them holds.
    static var defaults: Self { get }
}

extension DefaultedMethodSettings {
    static var whenAbsent: Self? { defaults }
}

/// The methods' settings of one policy, by key.
struct MethodSettingsTable: Sendable, Equatable {
    private var values: [String: any MethodSettings] = [:]

    /// The settings types a policy's JSON holds: those of the standard registry's configurable
    /// methods.
    static let known: [any MethodSettings.Type] = MethodRegistry.standard.settingsTypes

    init() {}

    /// The settings of type `Settings`, or their defaults: settings every policy holds.
    subscript<Settings: DefaultedMethodSettings>(defaulted type: Settings.Type) -> Settings {
        get { values[Settings.policyKey] as? Settings ?? Settings.defaults }
        set { values[Settings.policyKey] = newValue }
    }

    /// The settings of type `Settings`, or what a policy without them holds.
    subscript<Settings: MethodSettings>(_ type: Settings.Type) -> Settings? {
        get { values[Settings.policyKey] as? Settings ?? Settings.whenAbsent }
        set { values[Settings.policyKey] = newValue }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        known.allSatisfy { type in same(type, lhs, rhs) }
    }

    private static func same<Settings: MethodSettings>(_ type: Settings.Type, _ lhs: Self, _ rhs: Self) -> Bool {
        lhs[type] == rhs[type]
    }
}

extension MethodSettingsTable: Codable {
    /// A key of the policy's JSON object.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads each known method's settings from the policy's object; other keys are the core
    /// policy's (or ignored, as before).
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for type in Self.known { try read(type, from: container) }
    }

    private mutating func read<Settings: MethodSettings>(
        _ type: Settings.Type, from container: KeyedDecodingContainer<Key>
    ) throws {
        if let value = try container.decodeIfPresent(Settings.self, forKey: Key(Settings.policyKey)) {
            values[Settings.policyKey] = value
        }
    }

    /// Writes each known method's settings into the policy's object, the defaults included.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for type in Self.known { try write(type, to: &container) }
    }

    private func write<Settings: MethodSettings>(_ type: Settings.Type, to container: inout KeyedEncodingContainer<Key>) throws {
        try container.encodeIfPresent(self[type], forKey: Key(Settings.policyKey))
    }
}

extension ApplicationPolicy {
    /// This policy with `settings` in place of the method's current ones.
    func with<Settings: MethodSettings>(_ settings: Settings) -> ApplicationPolicy {
        var copy = self
        copy.methodSettings[Settings.self] = settings
        return copy
    }
}
