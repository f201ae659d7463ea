import KeywayProtocol

// The codes of the server's own refusals: requests no SDK sends (a malformed path, method or
// body, an administrator's conflict) and the server's failures. An app meets them as any problem,
// by its `action` and `retryable`; the codes an app matches are `KeywayProtocol`'s.
extension ProblemCode {
    /// The request has no config ID header.
    public static let missingConfigId = ProblemCode(rawValue: "missing_config_id")
    /// No route matches the path.
    public static let notFound = ProblemCode(rawValue: "not_found")
    /// The route exists but not for this HTTP method.
    public static let methodNotAllowed = ProblemCode(rawValue: "method_not_allowed")
    /// The body is larger than the server accepts.
    public static let payloadTooLarge = ProblemCode(rawValue: "payload_too_large")
    /// The body is not JSON.
    public static let unsupportedMediaType = ProblemCode(rawValue: "unsupported_media_type")
    /// Something with this ID exists already (an identity provider of the project).
    public static let alreadyExists = ProblemCode(rawValue: "already_exists")
    /// A requested scope is unknown or not allowed for the application.
    public static let invalidScope = ProblemCode(rawValue: "invalid_scope")
    /// The redirect URI is not one the application registered.
    public static let invalidRedirectURI = ProblemCode(rawValue: "invalid_redirect_uri")
    /// The server failed unexpectedly; the request may be repeated.
    public static let internalError = ProblemCode(rawValue: "internal_error")
    /// The server is temporarily unable to answer.
    public static let serviceUnavailable = ProblemCode(rawValue: "service_unavailable")
}
