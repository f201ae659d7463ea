import Foundation

/// One choice of a `selectMethod` step.
public struct MethodOption: Codable, Sendable, Equatable {
    /// What to send back in ``SelectMethodRequest/methodID``.
    public var id: String
    /// The method behind the choice.
    public var type: AuthenticationMethod
    /// A label to show ("Email a code to a•••@example.com").
    public var label: String
    /// Where a code would go, masked, for code methods.
    public var destination: String?
    /// The upstream provider, for a ``AuthenticationMethod/federation`` choice: its button's label
    /// and icon.
    public var provider: FederationProvider?

    /// Creates a method choice with the given values.
    ///
    /// - Parameters:
    ///   - id: What to send back to choose it.
    ///   - type: The method behind the choice.
    ///   - label: A label to show.
    ///   - destination: Where a code would go, masked, for code methods.
    ///   - provider: The upstream provider, for a federation choice.
    public init(
        id: String, type: AuthenticationMethod, label: String, destination: String? = nil,
        provider: FederationProvider? = nil
    ) {
        self.id = id
        self.type = type
        self.label = label
        self.destination = destination
        self.provider = provider
    }
}

/// Payload of a `selectMethod` step.
public struct SelectMethodPayload: Codable, Sendable, Equatable {
    /// The methods available to this user at this point.
    public var methods: [MethodOption]
    /// What the chosen method is for.
    public var purpose: MethodPurpose
    /// Whether the step can be skipped (an optional second factor); the step then offers `skip`.
    public var skippable: Bool

    /// Creates a method choice payload with the given values.
    ///
    /// - Parameters:
    ///   - methods: The methods available now.
    ///   - purpose: What the chosen method is for.
    ///   - skippable: Whether the step can be skipped.
    public init(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool = false) {
        self.methods = methods
        self.purpose = purpose
        self.skippable = skippable
    }
}
