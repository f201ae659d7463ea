import Crypto
import Foundation
import KeywayPowerAuthWire

extension DeviceActivation {
    /// A token for MAC token-based authentication under `name`: the stored one when the device
    /// holds it, else a new one from the server (`POST /pa/v3/token/create`, `{}` encrypted in
    /// activation scope and signed over the sealed body with `authentication`, whose factors the
    /// token carries). It is kept in the secure storage under the activation's namespace
    /// (`keyway.activation.APP.CONFIG_ID.tokens`) until ``removeToken(named:)`` or the
    /// activation's removal.
    ///
    /// - Parameters:
    ///   - name: The app's name for the token.
    ///   - authentication: The factors the token stands for.
    /// - Returns: The token.
    /// - Throws: ``ActivationError``: `authenticationFailed` for a wrong password,
    ///   `invalidResponse`, the transport's errors, `noActivation`, `notCommitted`, `storage`.
    public func requestToken(named name: String, authentication: FactorAuthentication) async throws(ActivationError) -> PowerAuthToken {
        let record = try await committedRecord()
        if let stored = try await store.readTokens(), stored.activationID == record.activationID, let token = stored.tokens[name] {
            return token.publicToken(name: name)
        }
        let answer = try await encryptedSignedPost(
            .tokenCreate, plaintext: Data("{}".utf8), record: record,
            with: authentication)
        let response = try PowerAuthHTTP.decode(TokenCreateResponse.self, from: answer, what: "token answer")
        guard !response.tokenId.isEmpty, let secret = Data(base64Encoded: response.tokenSecret), secret.count == 16 else {
            throw .invalidResponse("The token answer has no token ID or a secret that is not 16 Base64 bytes.")
        }
        let token = StoredToken(
            tokenID: response.tokenId, secret: secret, factors: authentication.factors.typeName, createdAt: options.clock.now())
        let store = self.store
        let activationID = record.activationID
        try await locked {
            guard try await store.read()?.activationID == activationID else { throw ActivationError.noActivation }
            var stored = try await store.readTokens() ?? StoredTokens(activationID: activationID, tokens: [:])
            if stored.activationID != activationID { stored = StoredTokens(activationID: activationID, tokens: [:]) }
            stored.tokens[name] = token
            try await store.writeTokens(stored)
        }
        return token.publicToken(name: name)
    }

    /// The `X-PowerAuth-Token` header (version 3.3) of the token named `name`: a fresh nonce, the
    /// clock's time, the digest. It needs no network and no activation record, so an app
    /// extension that imported the tokens (``importTokens(_:key:)``) computes it too.
    ///
    /// - Parameter name: The token's name.
    /// - Returns: The header (``PowerAuthTokenHeader/value`` is its value).
    /// - Throws: ``ActivationError``: `tokenNotFound`, `storage`.
    public func tokenHeader(named name: String) async throws(ActivationError) -> PowerAuthTokenHeader {
        guard let token = try await currentTokens()?.tokens[name] else { throw .tokenNotFound(name) }
        do {
            return try PowerAuthTokenHeader(tokenID: token.tokenID, tokenSecret: SymmetricKey(data: token.secret), timestamp: nowMilliseconds)
        } catch {
            throw .storage(.unreadable("The stored token secret is not 16 bytes."))
        }
    }

    /// Removes the token named `name`: on the server (`POST /pa/v3/token/remove`, signed with
    /// possession), then on the device. A token the server no longer knows (`ERR_TOKEN`) is
    /// removed on the device too.
    ///
    /// - Parameter name: The token's name.
    /// - Throws: ``ActivationError``: `tokenNotFound`, the transport's errors (the token is then
    ///   kept), `noActivation`, `storage`.
    public func removeToken(named name: String) async throws(ActivationError) {
        let record = try await committedRecord()
        guard let stored = try await currentTokens(), stored.activationID == record.activationID, let token = stored.tokens[name] else {
            throw .tokenNotFound(name)
        }
        do {
            _ = try await signedPost(
                .tokenRemove,
                body: try PowerAuthHTTP.encode(PowerAuthRequestEnvelope(requestObject: TokenRemoveObject(tokenId: token.tokenID))), with: .possession)
        } catch .server(_, "ERR_TOKEN", _) {
            // Unknown to the server: nothing to remove there.
        }
        let store = self.store
        try await locked {
            guard var current = try await store.readTokens(), current.tokens[name]?.tokenID == token.tokenID else { return }
            current.tokens[name] = nil
            try await store.writeTokens(current)
        }
    }

    /// The tokens the device holds, by name.
    ///
    /// - Returns: The tokens, sorted by name.
    /// - Throws: ``ActivationError/storage(_:)``.
    public func tokens() async throws(ActivationError) -> [PowerAuthToken] {
        guard let stored = try await currentTokens() else { return [] }
        return stored.tokens.keys.sorted().map { stored.tokens[$0]!.publicToken(name: $0) }
    }

    /// The device's tokens sealed for an app extension or a companion device: AES-GCM under
    /// `key` (which the receiving side must already share, for example through a shared
    /// Keychain access group or a pairing), bound to this application. Whoever holds the blob
    /// and the key can authenticate with the tokens until they are removed: hand it over only
    /// on a channel as safe as the key.
    ///
    /// - Parameters:
    ///   - names: The tokens to export; all by default.
    ///   - key: A 128-, 192- or 256-bit key both sides share.
    /// - Returns: The sealed blob.
    /// - Throws: ``ActivationError``: `tokenNotFound` for a name the device does not hold,
    ///   `noActivation` when the device holds neither tokens nor an activation,
    ///   `invalidTokenExport` for a key of another size, `storage`.
    public func exportTokens(named names: [String]? = nil, key: SymmetricKey) async throws(ActivationError) -> Data {
        let stored: StoredTokens
        if let current = try await currentTokens() {
            stored = current
        } else if let first = names?.first {
            throw .tokenNotFound(first)
        } else {
            // Nothing stored yet: an empty hand-off of the device's activation.
            stored = StoredTokens(activationID: try await existingRecord().activationID, tokens: [:])
        }
        var selected = stored.tokens
        if let names {
            selected = [:]
            for name in names {
                guard let token = stored.tokens[name] else { throw .tokenNotFound(name) }
                selected[name] = token
            }
        }
        return try TokenExport.seal(
            TokenExport.Contents(applicationKey: configuration.applicationKey, activationID: stored.activationID, tokens: selected), key: key)
    }

    /// Imports tokens that ``exportTokens(named:key:)`` sealed (in an app extension or on a
    /// companion device sharing `key`): they are stored as this device's tokens, replacing
    /// those of the same names. A device holding its own activation accepts only its own
    /// activation's tokens.
    ///
    /// - Parameters:
    ///   - blob: The sealed tokens.
    ///   - key: The shared key.
    /// - Returns: The imported tokens.
    /// - Throws: ``ActivationError/invalidTokenExport(_:)`` when the blob does not open with
    ///   `key` (another key, a changed byte, another application) or belongs to another
    ///   activation; `storage`.
    @discardableResult
    public func importTokens(_ blob: Data, key: SymmetricKey) async throws(ActivationError) -> [PowerAuthToken] {
        let contents = try TokenExport.open(blob, key: key, applicationKey: configuration.applicationKey)
        let store = self.store
        try await locked {
            if let record = try await store.read(), record.activationID != contents.activationID {
                throw ActivationError.invalidTokenExport("they belong to another activation than this device's.")
            }
            var stored = try await store.readTokens() ?? StoredTokens(activationID: contents.activationID, tokens: [:])
            if stored.activationID != contents.activationID { stored = StoredTokens(activationID: contents.activationID, tokens: [:]) }
            stored.tokens.merge(contents.tokens) { _, new in new }
            try await store.writeTokens(stored)
        }
        return contents.tokens.keys.sorted().map { contents.tokens[$0]!.publicToken(name: $0) }
    }

    /// The stored tokens, unless they belong to another activation than the device's.
    func currentTokens() async throws(ActivationError) -> StoredTokens? {
        guard let stored = try await store.readTokens() else { return nil }
        if let record = try await store.read(), record.activationID != stored.activationID { return nil }
        return stored
    }
}
