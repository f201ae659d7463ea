// PowerAuth/Encryption/ — end-to-end encryption: ECIES requests, temporary keys, signed and encrypted endpoints.
//
// - `EciesRequest.swift`: an encrypted request checked field by field, opened, its answer sealed.
// - `PowerAuthKeystore.swift`: the temporary keys of `POST /pa/v3/keystore/create`.
// - `PowerAuthSignedEncryption.swift`: endpoints whose body is signed by an activation and encrypted to it.
// - `PowerAuthTemporaryKeyRepository.swift`: temporary ECIES keys (`powerauth_temporary_keys`).
