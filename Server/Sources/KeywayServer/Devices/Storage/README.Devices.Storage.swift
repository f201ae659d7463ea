// Devices/Storage/ — the rows of trusted devices and of approval requests waiting for one.
//
// - `ApprovalRepository.swift`: approval requests of sign-ins waiting for a device (`approval_requests`).
// - `TrustedDeviceRecord.swift`: `TrustedDeviceRecord` (a device's public key) and `ApprovalRecord`.
// - `TrustedDeviceRepository.swift`: trusted devices (`trusted_devices`).
