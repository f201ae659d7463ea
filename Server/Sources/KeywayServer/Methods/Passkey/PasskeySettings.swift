import Foundation
import KeywayProtocol

/// The settings of passkeys (`passkeys` in the policy): the relying party they are bound to, the
/// origins whose ceremonies count, and what a passkey must show.
public struct PasskeySettings: Codable, Sendable, Equatable {
    /// The relying-party ID: the issuer's host, or a parent domain of it (`example.com` for an
    /// issuer at `login.example.com`), so the app and the site's other hosts share the passkeys.
    /// `nil` takes the issuer's host.
    public var rpId: String?
    /// The exact origins whose ceremonies count, besides the issuer's own: web origins
    /// (`https://app.example.com`, on the relying-party domain or below it), and apps
    /// (`ios:bundle-id:com.example.app`, `android:apk-key-hash:…`).
    public var origins: [String]
    /// `required` (the default: the authenticator verified the user, with biometrics or a PIN)
    /// or `preferred` (user presence is enough).
    public var userVerification: String
    /// `none` (the default) or `direct`: whether registration asks for the authenticator's
    /// attestation statement.
    public var attestation: String
    /// Whether passkeys a provider syncs between devices (the backup-eligible flag) are
    /// accepted; `false` keeps to device-bound ones (security keys).
    public var allowSynced: Bool
    /// Whether a sign-in without a passkey offers to make one before it completes (skippable).
    public var offerAfterSignIn: Bool

    /// The values `userVerification` may take.
    static let userVerificationValues = ["required", "preferred"]
    /// The values `attestation` may take.
    static let attestationValues = ["none", "direct"]

    public init(
        rpId: String? = nil, origins: [String] = [], userVerification: String = "required", attestation: String = "none",
        allowSynced: Bool = true, offerAfterSignIn: Bool = false
    ) {
        self.rpId = rpId
        self.origins = origins
        self.userVerification = userVerification
        self.attestation = attestation
        self.allowSynced = allowSynced
        self.offerAfterSignIn = offerAfterSignIn
    }

    private enum CodingKeys: String, CodingKey {
        case rpId, origins, userVerification, attestation, allowSynced, offerAfterSignIn
    }

    /// Decodes settings; missing fields take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rpId = try container.decodeIfPresent(String.self, forKey: .rpId)
        origins = try container.decodeIfPresent([String].self, forKey: .origins) ?? []
        userVerification = try container.decodeIfPresent(String.self, forKey: .userVerification) ?? "required"
        attestation = try container.decodeIfPresent(String.self, forKey: .attestation) ?? "none"
        allowSynced = try container.decodeIfPresent(Bool.self, forKey: .allowSynced) ?? true
        offerAfterSignIn = try container.decodeIfPresent(Bool.self, forKey: .offerAfterSignIn) ?? false
    }

    /// The problems of these settings, for a policy that lists `passkey`. Whether `rpId` is the
    /// issuer's domain is checked where the issuer is known (``relyingParty(issuer:)``).
    func problems() -> [PolicyProblem] {
        var problems: [PolicyProblem] = []
        if let rpId, !Self.isDomainName(rpId) {
            problems.append(
                PolicyProblem(
                    code: "passkey_invalid_rp_id", field: "passkeys.rpId",
                    message: "Give a lowercase domain name without scheme or port, such as example.com."))
        }
        if origins.count > 20 {
            problems.append(
                PolicyProblem(code: "passkey_too_many_origins", field: "passkeys.origins", message: "List at most 20 origins."))
        }
        for (index, origin) in origins.enumerated() {
            if let reason = Self.originProblem(origin, rpId: rpId) {
                problems.append(PolicyProblem(code: "passkey_invalid_origin", field: "passkeys.origins[\(index)]", message: reason))
            }
        }
        if !Self.userVerificationValues.contains(userVerification) {
            problems.append(
                PolicyProblem(
                    code: "passkey_invalid_user_verification", field: "passkeys.userVerification",
                    message: "Use required or preferred."))
        }
        if !Self.attestationValues.contains(attestation) {
            problems.append(
                PolicyProblem(
                    code: "passkey_invalid_attestation", field: "passkeys.attestation", message: "Use none or direct."))
        }
        return problems
    }

    /// What the verifier checks against for an issuer: `nil` when ``rpId`` is neither the
    /// issuer's host nor a parent domain of it (a passkey of another site), so passkeys are not
    /// offered.
    func relyingParty(issuer: String) -> WebAuthnRelyingParty? {
        guard let components = URLComponents(string: issuer), let host = components.host?.lowercased(), !host.isEmpty,
            let scheme = components.scheme?.lowercased()
        else { return nil }
        let id = rpId ?? host
        guard Self.isRegistrable(id, for: host) else { return nil }
        var issuerOrigin = "\(scheme)://\(host)"
        if let port = components.port, !(scheme == "https" && port == 443), !(scheme == "http" && port == 80) {
            issuerOrigin += ":\(port)"
        }
        var accepted = [issuerOrigin]
        for origin in origins where !accepted.contains(origin) { accepted.append(origin) }
        return WebAuthnRelyingParty(
            id: id, origins: accepted,
            userVerification: userVerification == "required" ? .required : .preferred,
            allowSyncedPasskeys: allowSynced, attestation: attestation == "direct" ? .direct : .none)
    }

    /// Whether `id` may be the relying-party ID of a site at `host`: the host itself, or a parent
    /// domain of at least two labels (never a top-level domain); `localhost` for itself only.
    static func isRegistrable(_ id: String, for host: String) -> Bool {
        guard isDomainName(id) || id == "localhost" else { return false }
        if id == host { return true }
        guard host.hasSuffix("." + id) else { return false }
        return id.split(separator: ".").count >= 2
    }

    /// A lowercase DNS name: labels of letters, digits and hyphens, at most 253 characters; an
    /// IP address is not a domain.
    static func isDomainName(_ value: String) -> Bool {
        guard !value.isEmpty, value.count <= 253, value == value.lowercased() else { return false }
        let labels = value.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }) else { return false }
        return !labels.allSatisfy { $0.allSatisfy(\.isNumber) } && !(labels.last?.allSatisfy(\.isNumber) ?? true)
    }

    /// Why `origin` cannot be accepted, or `nil`.
    static func originProblem(_ origin: String, rpId: String?) -> String? {
        if origin.hasPrefix("ios:bundle-id:") {
            let bundle = origin.dropFirst("ios:bundle-id:".count)
            let valid = !bundle.isEmpty && bundle.count <= 155
                && bundle.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            return valid ? nil : "Give the app's bundle identifier after ios:bundle-id: (letters, digits, dots, hyphens)."
        }
        if origin.hasPrefix("android:apk-key-hash:") {
            let hash = origin.dropFirst("android:apk-key-hash:".count)
            let valid = (40...90).contains(hash.count)
                && hash.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "+" || $0 == "/" || $0 == "=") }
            return valid ? nil : "Give the base64 SHA-256 of the app's signing certificate after android:apk-key-hash:."
        }
        guard let components = URLComponents(string: origin), let scheme = components.scheme, let host = components.host,
            components.path.isEmpty, components.query == nil, components.fragment == nil, components.user == nil,
            origin == origin.lowercased(), origin.count <= 300
        else {
            return "Give an origin such as https://app.example.com (scheme, host and port only, lowercase), or ios:bundle-id:com.example.app."
        }
        if scheme != "https", !(scheme == "http" && host == "localhost") {
            return "Web origins use https (http only for localhost)."
        }
        if let rpId, host != rpId, !host.hasSuffix("." + rpId) {
            return "A web origin must be on the relying-party domain \(rpId) or below it."
        }
        return nil
    }
}

extension PasskeySettings: MethodSettings {
    static let policyKey = "passkeys"
    static var whenAbsent: PasskeySettings? { nil }
}

extension ApplicationPolicy {
    /// Passkeys, for applications offering ``AuthenticationMethod/passkey`` (`passkeys`); `nil` takes
    /// the defaults (the issuer's host as relying party, user verification required).
    public var passkeys: PasskeySettings? {
        get { methodSettings[PasskeySettings.self] }
        set { methodSettings[PasskeySettings.self] = newValue }
    }
}

extension FlowPolicy {
    /// Passkeys: the policy's, or the defaults (the issuer's host, user verification required).
    var passkeys: PasskeySettings {
        get { methodSettings[PasskeySettings.self] ?? PasskeySettings() }
        set { methodSettings[PasskeySettings.self] = newValue }
    }
}
