/// A string-backed set of values that stays open: a value this version does not know still
/// decodes (and encodes back unchanged), so an older client keeps working with a newer server.
/// Conforming types get their JSON form (the bare string, from the standard library's
/// `RawRepresentable` coding) and their `description` (the raw value) from here.
public protocol OpenStringValue: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible
where RawValue == String {
    /// Creates a value from its wire spelling, known to this version or not.
    ///
    /// - Parameter rawValue: The value as the wire spells it.
    init(rawValue: String)
}

extension OpenStringValue {
    /// The raw value, as the wire spells it.
    public var description: String { rawValue }
}
