import Foundation

/// The secrets the server keeps sealed under its master key: the signing keys' private keys and
/// the server's secret keys (``ServerSecretKey/all``).
enum SecretsAtRest {
    /// Seals the secrets stored in the clear (by a release before sealing), and checks that every
    /// sealed one opens with `masterKey` — a wrong or missing key stops the start here, with the
    /// reason, before anything is served. Returns how many secrets were sealed now.
    @discardableResult
    static func prepare(in database: any Database, masterKey: MasterKey) async throws -> Int {
        try await database.write { repositories in
            var sealed = 0
            for key in try await repositories.keys.signingKeys() {
                let name = SigningKey.sealingName(key.kid)
                if MasterKey.isSealed(key.privateKey) {
                    _ = try masterKey.open(key.privateKey, name: name)
                } else {
                    try await repositories.keys.updateSigningKeyPrivate(
                        kid: key.kid, value: try masterKey.seal(key.privateKey, name: name))
                    sealed += 1
                }
            }
            for secretName in ServerSecretKey.all {
                guard let stored = try await repositories.keys.secret(named: secretName) else { continue }
                let name = ServerSecretKey.sealingName(secretName)
                if MasterKey.isSealed(stored) {
                    _ = try masterKey.open(stored, name: name)
                } else {
                    try await repositories.keys.updateSecret(
                        named: secretName, value: try masterKey.seal(stored, name: name))
                    sealed += 1
                }
            }
            return sealed
        }
    }

    /// Seals every secret anew with `newKey`, in one transaction: afterwards only `newKey` opens
    /// them. Returns how many secrets were sealed.
    static func rewrap(in database: any Database, from oldKey: MasterKey, to newKey: MasterKey) async throws -> Int {
        try await prepare(in: database, masterKey: oldKey)
        return try await database.write { repositories in
            var count = 0
            for key in try await repositories.keys.signingKeys() {
                let name = SigningKey.sealingName(key.kid)
                let plain = try oldKey.open(key.privateKey, name: name)
                try await repositories.keys.updateSigningKeyPrivate(kid: key.kid, value: try newKey.seal(plain, name: name))
                count += 1
            }
            for secretName in ServerSecretKey.all {
                guard let stored = try await repositories.keys.secret(named: secretName) else { continue }
                let name = ServerSecretKey.sealingName(secretName)
                let plain = try oldKey.open(stored, name: name)
                try await repositories.keys.updateSecret(named: secretName, value: try newKey.seal(plain, name: name))
                count += 1
            }
            return count
        }
    }
}
