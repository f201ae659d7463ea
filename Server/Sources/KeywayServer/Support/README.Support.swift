// Support/ — small pieces every part of the server uses: identifiers, randomness, secrets, locks, processes, logging.
//
// - `AsyncLock.swift`: a non-reentrant lock for async code.
// - `ChildProcess.swift`: a child process started with `posix_spawn`, its standard streams on pipes.
// - `ClientAddress.swift`: an address as limits count it: IPv4 itself, IPv6 its /64.
// - `ClientDescription.swift`: a coarse name of a client from its `User-Agent` ("Chrome on Linux").
// - `EmailAddress.swift`: email addresses normalized, checked and masked.
// - `GracefulShutdownSwitch.swift`: connects `shutDown()` to the service group, whichever comes first.
// - `Identifier.swift`: a normalized user identifier: an email address or an E.164 number.
// - `KeywayLogHandler.swift`: the log handler of `keyway-server`: one line per event, one `write(2)`.
// - `Lockable.swift`: `Locked`: a value guarded by a lock.
// - `LoggedService.swift`: a listener or background service that logs its stop, or what keeps it busy.
// - `LoopbackHost.swift`: whether a host name or address reaches only this machine.
// - `MasterKey.swift`: the key that seals signing keys and server secrets at rest (AES-256-GCM).
// - `MixedScript.swift`: identifier labels mixing scripts as look-alike addresses do, refused.
// - `PhoneNumber.swift`: phone numbers normalized to E.164 and masked.
// - `SecretBox.swift`: secrets at rest sealed with AES-GCM under a server key, bound to a purpose.
// - `SecretFile.swift`: a secret file other users can write refused; one they can read warned about.
// - `SecureRandom.swift`: identifiers, tokens and codes from the system CSPRNG; `sha256Hex`.
// - `ServerClock.swift`: the `ServerClock` protocol and `SystemClock`.
// - `ShutdownNotice.swift`: logs that the server is stopping, and how long the rest may take.
