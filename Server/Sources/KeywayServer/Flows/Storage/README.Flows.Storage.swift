// Flows/Storage/ — the rows of flows, sign-up invite codes and start tokens.
//
// - `FlowRecord.swift`: a flow in progress or finished, with all needed to continue it after a restart.
// - `FlowRepository.swift`: flows and their one-time-code state (`flows`).
// - `InviteCodeRepository.swift`: single-use sign-up invite codes, stored as hashes.
// - `StartTokenRepository.swift`: single-use start tokens for a known identifier; `StartTokenClaim`.
