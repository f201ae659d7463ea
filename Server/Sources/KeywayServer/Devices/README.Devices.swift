// Devices/ — trusted devices outside flows: approvals of waiting sign-ins, device signatures, App Attest.
//
// - `ApprovalService+PowerAuth.swift`: approvals and revocations by an activated PowerAuth device.
// - `ApprovalService.swift`: the sign-ins waiting for a device, approved or denied; devices listed, revoked.
// - `DeviceSignatures.swift`: devices' ES256 signatures checked; `CoarseLocation` of an address.
// - `AppAttest/`: Apple App Attest: settings, challenges, attested keys, and their checks.
// - `Storage/`: the rows of trusted devices and approval requests.
//
// The trusted-device and approval sign-in methods themselves live in `Methods/TrustedDevice/` and
// `Methods/Approval/`.
