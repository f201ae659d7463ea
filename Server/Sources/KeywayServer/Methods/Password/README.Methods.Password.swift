// Methods/Password/ — passwords: sign-in, sign-up, change and reset, hashed with scrypt outside the flow's transaction.
//
// - `PasswordDependencies.swift`: the hashing and its bound the server gives the methods, by key.
// - `PasswordGate.swift`: bounds the password hashing in progress or waiting, overall and per network.
// - `PasswordHasher.swift`: scrypt (RFC 7914) hashes as PHC strings, on a thread pool of their own.
// - `PasswordHashing.swift`: the `PasswordHashing` protocol: hashing, verifying, a new password's rules.
// - `PasswordMethod+Account.swift`: the account step's `changePassword`.
// - `PasswordMethod+Input.swift`: a password checked or set; the attempt counted before the slow hash.
// - `PasswordMethod.swift`: a primary method, set up at sign-up, and a re-verification; `PasswordStage`.
// - `PasswordPolicy.swift`: a new password's rules: length, and not one of the most common.
// - `PasswordProblems.swift`: `invalidCredentials`, `weakPassword` and `passwordChecksBusy`.
// - `PasswordResetMethod.swift`: "Forgot password?": a code, the second factor, then a new password.
// - `PasswordSettings.swift`: `password` in the policy: the minimum length, 8 to 128.
// - `ScryptPasswords.swift`: the server's `PasswordHashing`: scrypt with the rules of `PasswordPolicy`.
//
// A password's input is staged (`FlowInputRoutes.staged`): the hash never holds the flow's write
// transaction.
