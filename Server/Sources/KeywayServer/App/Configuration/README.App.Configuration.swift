// App/Configuration/ — what the server starts with: `ServerConfiguration` and the settings types it holds.
//
// - `DPoPPolicy.swift`: how an application's tokens are bound to a client key: off, optional or required.
// - `DatabaseLocation.swift`: the `--database` URL parsed (SQLite or PostgreSQL); `ConfigurationError`.
// - `RefreshTokenPolicy.swift`: a refresh token family's absolute and idle lifetimes, and reuse grace period.
// - `ServerConfiguration.swift`: the server's settings, with `FlowLimits`, `RateLimits`, `TokenLifetimes`.
