// Flows/Policy/ — an application's policy: its methods, second factor, flows, sign-up form and delivery.
//
// - `ApplicationPolicy.swift`: `ApplicationPolicy`, as the admin API and storage hold it; `SignupSettings`.
// - `AuthenticationMethods.swift`: `MFAMode`: off, optional or required.
// - `MethodSettings.swift`: each method's settings under a key of its own; `MethodSettingsTable`.
// - `PolicyError.swift`: `PolicyError` and `PolicyProblem`: every rule a refused policy breaks.
// - `PolicyFormField.swift`: one field of the sign-up form.
// - `PolicyRepository.swift`: one JSON policy per application (`application_policies`).
// - `PolicyValidation.swift`: `validate(devMode:)`: every rule checked against the method registry.
