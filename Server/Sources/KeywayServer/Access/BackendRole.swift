/// What an app's backend may do beyond what any client of its project may: a role the project's
/// administrator grants an application explicitly (`PATCH /admin/applications/{configId}`,
/// `keyway-server project update --backend-role`). Only a confidential application the
/// administrators made may hold one; a client registered dynamically (`/oauth2/register`) never
/// does, whatever its registration says.
public enum BackendRole: String, Sendable, CaseIterable, Comparable {
    /// The `/v1/powerauth/…` routes: verifying devices' signatures and tokens, the keys of
    /// devices' encrypted requests, activations' public keys, server signatures.
    case powerAuth = "powerauth"
    /// Introspecting (RFC 7662) the tokens of the project's other applications, not only its own.
    case introspection

    public static func < (lhs: BackendRole, rhs: BackendRole) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The roles of a stored list (`introspection powerauth`); unknown names are ignored, so a
    /// role a later release adds does not stop this one from reading the application.
    static func parse(_ stored: String) -> Set<BackendRole> {
        Set(stored.split(separator: " ").compactMap { BackendRole(rawValue: String($0)) })
    }

    /// A stored list: the names, sorted, separated by spaces.
    static func stored(_ roles: Set<BackendRole>) -> String {
        roles.sorted().map(\.rawValue).joined(separator: " ")
    }
}
