/// The App Attest checks the server gives the trusted-device method, for the assertions of
/// device enrolments. Without one, an enrolment is refused as a server error.
enum AppAttestKey: MethodDependencyKey {
    static let defaultValue: AppAttestService? = nil
}

extension MethodDependencies {
    /// Checks the App Attest assertions of device enrolments.
    var appAttest: AppAttestService? {
        get { self[AppAttestKey.self] }
        set { self[AppAttestKey.self] = newValue }
    }
}
