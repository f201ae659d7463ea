/// The authentication context classes (`acr`, OpenID Connect Core §2) Keyway's ID tokens name,
/// from the methods the sign-in proved (its `amr`). Every ID token carries one, so a relying party
/// that asked with `acr_values` reads the level the sign-in reached; the request's `acr_values`
/// are voluntary (Core §3.1.2.1) and change nothing of the sign-in. Discovery lists them
/// (`acr_values_supported`).
enum AuthenticationContextClass {
    /// A guest, who proved nothing: Core §2's `"0"`, below ISO/IEC 29115 level 1.
    static let guest = "0"
    /// One factor: a code, a password, a passkey, a federated sign-in or a device approval.
    static let oneFactor = "urn:keyway:loa:1fa"
    /// Two factors: the sign-in's second factor was proved (its `amr` includes `mfa`).
    static let twoFactors = "urn:keyway:loa:2fa"

    /// Every class, as discovery lists them.
    static let supported = [guest, oneFactor, twoFactors]

    /// The class a sign-in with `amr` reached.
    static func of(amr: [String]) -> String {
        if amr.contains("mfa") { return twoFactors }
        if amr.contains(GuestService.amr) { return guest }
        return oneFactor
    }
}
