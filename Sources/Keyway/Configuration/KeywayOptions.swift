import Foundation

/// How the SDK chooses the primary sign-in method when the server offers a choice.
public enum PrimaryMethodSelectionPolicy: Sendable, Equatable {
    /// Always show the method choice to the user.
    case manual
    /// During sign-in, pick the method the identifier makes obvious (an email address → email
    /// code, a phone number → SMS code) without showing the choice.
    case automaticFromIdentifier
}

/// Options of a ``Keyway`` instance. Every seam (transport, clock, randomness) is injectable.
public struct KeywayOptions: Sendable {
    /// Sent as `X-Keyway-Relying-Party` when the app's backend expects it.
    public var relyingParty: String?
    /// How the primary method is chosen when the server offers several.
    public var primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy
    /// The HTTP transport; URLSession by default.
    public var transport: any HTTPTransport
    /// The clock.
    public var clock: any KeywayClock
    /// The randomness source.
    public var random: any KeywayRandom

    public init(
        relyingParty: String? = nil, primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy = .manual,
        transport: any HTTPTransport = URLSessionTransport(), clock: any KeywayClock = SystemKeywayClock(),
        random: any KeywayRandom = SystemKeywayRandom()
    ) {
        self.relyingParty = relyingParty
        self.primaryMethodSelectionPolicy = primaryMethodSelectionPolicy
        self.transport = transport
        self.clock = clock
        self.random = random
    }
}
