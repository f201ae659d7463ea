/// How an application uses Apple App Attest to know that requests come from a genuine instance
/// of its app on a genuine Apple device.
///
/// An app instance registers an attested key once (`POST /v1/app-attest/keys`); afterwards it
/// signs assertions with it. With ``deviceEnrolment``, enrolling a trusted device carries an
/// assertion over the enrolment input, and the device is hardware-backed (`amr` `hwk`) only
/// when it did. With ``dpopBinding``, redeeming a code carries an assertion over the DPoP proof,
/// so tokens are bound only to keys of genuine app instances. An assertion that fails a check
/// is always refused; a request without one is handled as ``whenUnavailable`` says.
public struct AppAttestSettings: Codable, Sendable, Equatable {
    /// What happens to a request that carries no App Attest proof (a device or OS without App
    /// Attest, the Simulator, an app extension, another platform).
    public enum Fallback: String, Codable, Sendable, CaseIterable {
        /// It is refused (`app_attest_required`): only attested app instances enrol devices or
        /// get DPoP-bound tokens.
        case refuse
        /// It goes on unattested: devices enrol as software-backed (`swk`) whatever the client
        /// says, and tokens are issued.
        case allowUnattested
    }

    /// Whether App Attest is used at all. Default `false`.
    public var enabled: Bool
    /// The App IDs whose keys are accepted: `TEAMID.bundle.identifier` (the team ID is 10
    /// upper-case letters or digits). 1…10 when enabled.
    public var appIDs: [String]
    /// The environment the keys come from. Default ``AppAttestEnvironment/production``.
    public var environment: AppAttestEnvironment
    /// Whether enrolling a trusted device asks for an assertion. Default `true`.
    public var deviceEnrolment: Bool
    /// Whether redeeming an authorization code with a DPoP proof asks for an assertion over the
    /// proof. Default `false`.
    public var dpopBinding: Bool
    /// What a request without an App Attest proof gets. Default ``Fallback/allowUnattested``.
    public var whenUnavailable: Fallback

    public init(
        enabled: Bool = false, appIDs: [String] = [], environment: AppAttestEnvironment = .production,
        deviceEnrolment: Bool = true, dpopBinding: Bool = false, whenUnavailable: Fallback = .allowUnattested
    ) {
        self.enabled = enabled
        self.appIDs = appIDs
        self.environment = environment
        self.deviceEnrolment = deviceEnrolment
        self.dpopBinding = dpopBinding
        self.whenUnavailable = whenUnavailable
    }

    private enum CodingKeys: String, CodingKey {
        case enabled, appIDs, environment, deviceEnrolment, dpopBinding, whenUnavailable
    }

    /// Decodes settings; missing fields take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AppAttestSettings()
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        appIDs = try container.decodeIfPresent([String].self, forKey: .appIDs) ?? defaults.appIDs
        environment = try container.decodeIfPresent(AppAttestEnvironment.self, forKey: .environment) ?? defaults.environment
        deviceEnrolment = try container.decodeIfPresent(Bool.self, forKey: .deviceEnrolment) ?? defaults.deviceEnrolment
        dpopBinding = try container.decodeIfPresent(Bool.self, forKey: .dpopBinding) ?? defaults.dpopBinding
        whenUnavailable = try container.decodeIfPresent(Fallback.self, forKey: .whenUnavailable) ?? defaults.whenUnavailable
    }

    /// Whether `appID` has the `TEAMID.bundle.identifier` form.
    static func isValidAppID(_ appID: String) -> Bool {
        let parts = appID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10, appID.count <= 200,
            parts[0].unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        else { return false }
        let bundle = parts[1]
        return !bundle.isEmpty && !bundle.hasPrefix(".") && !bundle.hasSuffix(".") && !bundle.contains("..")
            && bundle.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-"
                    || $0 == "_"
            }
    }
}
