/// Why an admin operation failed. The HTTP routes answer each with a problem document; the
/// subcommands print ``description`` and exit with status 1.
package enum AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No application has this config ID.
    case applicationNotFound(configId: String)
    /// No user has this ID.
    case userNotFound(userId: String)
    /// The policy breaks the listed rules; nothing was saved.
    case invalidPolicy(PolicyError)
    /// An input is malformed: the field and a sentence.
    case invalidInput(field: String, message: String)
    /// The user has no trusted device with this ID.
    case deviceNotFound(deviceId: String)
    /// No project has this ID.
    case projectNotFound(projectId: String)
    /// The application has no registration token with this ID.
    case registrationTokenNotFound(tokenId: String)
    /// The project has no identity provider with this ID.
    case identityProviderNotFound(providerId: String)
    /// The project has an identity provider with this ID already.
    case identityProviderExists(providerId: String)

    package var description: String {
        switch self {
        case .applicationNotFound(let configId): "No application has the config ID \(configId)."
        case .userNotFound(let userId): "No user has the ID \(userId)."
        case .invalidPolicy(let error): "The policy was not saved:\n\(error.description)"
        case .invalidInput(let field, let message): "\(field): \(message)"
        case .deviceNotFound(let deviceId): "The user has no trusted device with the ID \(deviceId)."
        case .projectNotFound(let projectId): "No project has the ID \(projectId)."
        case .registrationTokenNotFound(let tokenId): "The application has no registration token with the ID \(tokenId)."
        case .identityProviderNotFound(let providerId): "The project has no identity provider with the ID \(providerId)."
        case .identityProviderExists(let providerId): "The project has an identity provider with the ID \(providerId) already."
        }
    }
}
