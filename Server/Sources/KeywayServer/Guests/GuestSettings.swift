import KeywayProtocol

/// Guests (`POST /v1/guests`): users without an identifier an app makes for someone who has not
/// signed up yet, upgraded later by a sign-up that keeps their user ID.
public struct GuestSettings: Codable, Sendable, Equatable {
    /// Whether the application makes guests.
    public var enabled: Bool
    /// How long a guest that was never upgraded is kept, in seconds (1 hour to 10 years): the
    /// maintenance sweep deletes older ones with their sessions.
    public var maxAge: Int
    /// How many guests one client network (an IPv4 address, an IPv6 /64) may make per hour, 1 to 1000.
    public var perAddressPerHour: Int

    /// The default maximum age: 30 days.
    public static let defaultMaxAge = 30 * 86_400
    /// The shortest and longest maximum age accepted.
    static let maxAgeRange = 3_600...(10 * 365 * 86_400)
    /// The per-address limits accepted.
    static let perAddressRange = 1...1_000

    /// Creates the settings.
    ///
    /// - Parameters:
    ///   - enabled: Whether the application makes guests.
    ///   - maxAge: How long a guest never upgraded is kept, in seconds.
    ///   - perAddressPerHour: Guests one client network may make per hour.
    public init(enabled: Bool = false, maxAge: Int = GuestSettings.defaultMaxAge, perAddressPerHour: Int = 10) {
        self.enabled = enabled
        self.maxAge = maxAge
        self.perAddressPerHour = perAddressPerHour
    }

    private enum CodingKeys: String, CodingKey { case enabled, maxAge, perAddressPerHour }

    /// Decodes the settings; missing members take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? false
        maxAge = try container.decodeIfPresent(Int.self, forKey: .maxAge) ?? Self.defaultMaxAge
        perAddressPerHour = try container.decodeIfPresent(Int.self, forKey: .perAddressPerHour) ?? 10
    }

    /// The problems of these settings, for ``ApplicationPolicy/validate(devMode:)``.
    func problems() -> [PolicyProblem] {
        var problems: [PolicyProblem] = []
        if !Self.maxAgeRange.contains(maxAge) {
            problems.append(
                PolicyProblem(
                    code: "invalid_guest_max_age", field: "guests.maxAge",
                    message: "Keep guests between 3600 seconds (an hour) and 315360000 seconds (ten years)."))
        }
        if !Self.perAddressRange.contains(perAddressPerHour) {
            problems.append(
                PolicyProblem(
                    code: "invalid_guest_rate", field: "guests.perAddressPerHour",
                    message: "Allow 1 to 1000 guests per client network and hour."))
        }
        return problems
    }
}
