import Foundation

/// An upstream OpenID Connect provider as a step shows it: its ID, button label and icon.
public struct FederationProvider: Codable, Sendable, Equatable {
    /// The provider's ID in its project (`google`); the method that signs in with it is
    /// `federation:<id>`.
    public var id: String
    /// The button's label ("Continue with Google").
    public var label: String
    /// An `https` URL of the provider's icon, if the project gave one.
    public var iconURL: String?

    /// Creates a provider description with the given values.
    ///
    /// - Parameters:
    ///   - id: The provider's ID in its project.
    ///   - label: The button's label.
    ///   - iconURL: An `https` URL of the provider's icon.
    public init(id: String, label: String, iconURL: String? = nil) {
        self.id = id
        self.label = label
        self.iconURL = iconURL
    }
}

/// Payload of a `redirect` step: open `url` in a browser; the provider sends the browser back to
/// Keyway, which sends it on to `returnScheme`. The client then sends the URL it received with the
/// step's `callback` action (or `cancel`s).
public struct RedirectPayload: Codable, Sendable, Equatable {
    /// The provider's authorization URL, with Keyway's state, PKCE challenge and nonce.
    public var url: String
    /// The scheme the browser comes back to: the app's custom scheme, or `https` for a web redirect.
    public var returnScheme: String
    /// The provider the user signs in with.
    public var provider: FederationProvider

    /// Creates a redirect payload with the given values.
    ///
    /// - Parameters:
    ///   - url: The provider's authorization URL.
    ///   - returnScheme: The scheme the browser comes back to.
    ///   - provider: The provider the user signs in with.
    public init(url: String, returnScheme: String, provider: FederationProvider) {
        self.url = url
        self.returnScheme = returnScheme
        self.provider = provider
    }
}

/// Payload of a `linkAccount` step: the identity the provider vouched for is new, and an account
/// already uses its address; the user signs in to that account the usual way, and the identity is
/// linked to it when the sign-in completes.
public struct LinkAccountPayload: Codable, Sendable, Equatable {
    /// The provider whose identity is linked on completion.
    public var provider: FederationProvider
    /// The existing account's identifier, masked (`a•••@example.com`).
    public var identifierHint: String

    /// Creates a link-account payload with the given values.
    ///
    /// - Parameters:
    ///   - provider: The provider whose identity is linked on completion.
    ///   - identifierHint: The existing account's identifier, masked.
    public init(provider: FederationProvider, identifierHint: String) {
        self.provider = provider
        self.identifierHint = identifierHint
    }
}

/// An upstream identity linked to the account, as account management lists it; the
/// `unlinkIdentity` action (field `identityId`) removes it, unless it is the last way in. An
/// identity linked before the account's address was first proved is held (``heldSince``): it
/// does not sign in until the owner keeps it (`keepIdentity`) or removes it.
public struct LinkedIdentity: Codable, Sendable, Equatable {
    /// The link's ID.
    public var id: String
    /// The provider's ID in its project.
    public var providerID: String
    /// The provider's label.
    public var label: String
    /// The address the provider gave, if any.
    public var email: String?
    /// When the identity was linked.
    public var linkedAt: Date
    /// When the identity was held — linked before the account's owner proved the address, it
    /// waits for the owner to keep or remove it —; `nil` when it signs in.
    public var heldSince: Date?

    /// Creates a linked identity with the given values.
    ///
    /// - Parameters:
    ///   - id: The link's ID.
    ///   - providerID: The provider's ID in its project.
    ///   - label: The provider's label.
    ///   - email: The address the provider gave, if any.
    ///   - linkedAt: When the identity was linked.
    ///   - heldSince: When the identity was held, waiting for the owner; `nil` when it signs in.
    public init(
        id: String, providerID: String, label: String, email: String? = nil, linkedAt: Date, heldSince: Date? = nil
    ) {
        self.id = id
        self.providerID = providerID
        self.label = label
        self.email = email
        self.linkedAt = linkedAt
        self.heldSince = heldSince
    }

    private enum CodingKeys: String, CodingKey {
        case id, providerID = "providerId", label, email, linkedAt, heldSince
    }
}

/// Body of `POST /v1/flows/{flowId}/federation/callback` (the `callback` action of a `redirect`
/// step): the full URL the app received, or its `code` and `state`.
public struct FederationCallbackRequest: Codable, Sendable, Equatable {
    /// The full callback URL the app received (`<returnScheme>://…?state=…`).
    public var url: String?
    /// The code, when the app sends the parts instead of the URL.
    public var code: Sensitive<String>?
    /// The state, when the app sends the parts instead of the URL.
    public var state: String?

    /// Creates a callback body with the given values: either `url`, or `code` and `state`.
    ///
    /// - Parameters:
    ///   - url: The full callback URL the app received.
    ///   - code: The code, when sent as parts.
    ///   - state: The state, when sent as parts.
    public init(url: String? = nil, code: Sensitive<String>? = nil, state: String? = nil) {
        self.url = url
        self.code = code
        self.state = state
    }
}
