// Methods/TrustedDevice/ — trusted devices in flows: a device key that stands in for the second factor.
//
// - `AppAttestDependency.swift`: the App Attest checks the server gives the method, by key.
// - `DeviceTrustSettings.swift`: `devices` in the policy: trust lifetime, device limit, when full.
// - `TrustedDeviceMethod+Account.swift`: the account step's `revokeDevice` and `revokeAllDevices`.
// - `TrustedDeviceMethod+Input.swift`: the device steps' answers: `device/enroll`, `device/prove`, `skip`.
// - `TrustedDeviceMethod+Trust.swift`: proof of the named device and enrolment, as the engine asks.
// - `TrustedDeviceMethod.swift`: a device's signature over a challenge; offered by the engine, never chosen.
// - `TrustedDeviceProgress.swift`: what the method keeps across a flow's stages (checked, asked to enrol, the device enrolled).
//
// The device's signatures are checked by `DeviceSignatures`, and the devices' rows kept, in `Devices/`.
