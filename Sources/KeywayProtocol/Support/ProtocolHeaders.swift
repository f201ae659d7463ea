/// The HTTP header names of the Keyway flow protocol.
public enum ProtocolHeader {
    /// Carries the application's config ID (its OAuth `client_id`) on every flow request.
    public static let configID = "X-Keyway-Config-Id"
    /// Carries the flow's secret token on every request after the flow started.
    public static let flowToken = "X-Keyway-Flow-Token"
    /// Optional relying-party identifier an app's backend may expect.
    public static let relyingParty = "X-Keyway-Relying-Party"
    /// The protocol version the client speaks; the server answers with the one it used.
    public static let protocolVersion = "X-Keyway-Protocol-Version"
    /// Client identification (`keyway-swift/1.0 (Linux)`), for support and analytics.
    public static let client = "X-Keyway-Client"
    /// The trace ID of a request; the server echoes it (or its own) on every answer.
    public static let traceID = "X-Keyway-Trace-Id"
    /// The Unix time (seconds) a trusted device signed a request at.
    public static let deviceTime = "X-Keyway-Device-Time"
    /// A trusted device's signature (ES256, raw `r‖s`, base64url) of a request.
    public static let deviceSignature = "X-Keyway-Device-Signature"
    /// The ID of the App Attest key whose assertion ``appAttestAssertion`` carries (token requests).
    public static let appAttestKey = "X-Keyway-App-Attest-Key"
    /// An App Attest assertion (base64url CBOR) over the request's DPoP proof (token requests).
    public static let appAttestAssertion = "X-Keyway-App-Attest-Assertion"
}

/// The version of the flow protocol described by this module.
public enum ProtocolVersion {
    /// The current version string, sent in ``ProtocolHeader/protocolVersion``.
    public static let current = "1"
}
