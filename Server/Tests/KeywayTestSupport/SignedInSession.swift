import Keyway
import KeywayProtocol

extension KeywayClient {
    /// A session of this client holding `tokens`, kept in memory: the account's calls
    /// (`trustedDevices()`, `profile()`, …) made as the signed-in user.
    public func session(holding tokens: TokenSet) async throws -> KeywaySession {
        let session = KeywaySession(keyway: self, storage: InMemorySecureStorage())
        try await session.save(tokens)
        return session
    }
}
