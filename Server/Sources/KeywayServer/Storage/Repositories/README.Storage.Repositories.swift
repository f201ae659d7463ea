// Storage/Repositories/ — the repositories most features share: projects and applications, users, sessions, limits.
//
// - `ApplicationRepository.swift`: projects and their applications, the dev project included.
// - `RateLimitRepository.swift`: fixed-window counters, one row per bucket (`rate_limits`).
// - `Repositories+SignOut.swift`: signing out across sessions, browser sessions and refresh tokens.
// - `SeenOnceRepository.swift`: single-use values already seen, by hash: DPoP proofs, assertions, …
// - `SessionRepository.swift`: signed-in sessions (`sessions`); `LiveSession`.
// - `UserRepository.swift`: users of a project (`users`), guests included.
