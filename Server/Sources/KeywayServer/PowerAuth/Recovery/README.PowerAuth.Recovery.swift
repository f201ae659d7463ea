// PowerAuth/Recovery/ — recovery codes: postcards an administrator makes, their PUKs, and a device's confirmation.
//
// - `PowerAuthRecoveryCodeRepository.swift`: recovery codes and their PUKs.
// - `PowerAuthRecoveryCodes.swift`: codes and PUKs as keyed hashes, PUKs used in order, the limits.
// - `PowerAuthRecoveryService.swift`: postcards made, listed, revoked; `POST /pa/v3/recovery/confirm`.
