import Foundation
import KeywayProtocol

/// A WebAuthn authenticator, as the SDK drives it: it makes a passkey for the options of a
/// ``Prompt/passkeyRegister(purpose:skippable:)`` prompt and signs with one for those of a
/// ``Prompt/passkeyAuthenticate(purpose:attemptsRemaining:)`` prompt. Hand one to
/// ``KeywayFlow/registerPasskey(using:name:)`` and ``KeywayFlow/authenticateWithPasskey(using:)``.
///
/// The SDK has two: ``PlatformPasskeyAuthenticator`` (the system's passkeys, iOS 17 and macOS 14)
/// and `SoftwarePasskeyAuthenticator` in the `KeywaySoftwarePasskeys` module (a key in software,
/// for tests, Linux and command-line tools). An app may write its own (a security key through
/// another library, say): it answers the WebAuthn Level 3 JSON a browser's
/// `PublicKeyCredential.toJSON()` gives, and throws a ``PasskeyError`` (any other error reaches
/// the app as ``PasskeyError/failed(_:)``). The WebAuthn types it takes and returns are
/// `KeywayProtocol`'s: an authenticator's file adds `import KeywayProtocol`.
public protocol PasskeyAuthenticator: Sendable {
    /// Makes a passkey (`navigator.credentials.create`).
    ///
    /// - Parameter options: The step's creation options: relying party, user, challenge, the
    ///   accepted algorithms, the credentials to exclude.
    /// - Returns: The new credential, as WebAuthn serialises it.
    /// - Throws: ``PasskeyError`` (``PasskeyError/cancelled`` when the user dismissed the
    ///   request, ``PasskeyError/alreadyRegistered`` when the authenticator already holds one of
    ///   the excluded credentials).
    func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws -> PasskeyRegistrationResponse

    /// Signs the step's challenge with a passkey (`navigator.credentials.get`).
    ///
    /// - Parameter options: The step's request options: challenge, relying party, the
    ///   credentials that may answer (any discoverable one of the relying party when empty).
    /// - Returns: The signature, as WebAuthn serialises it.
    /// - Throws: ``PasskeyError`` (``PasskeyError/cancelled`` when the user dismissed the
    ///   request, ``PasskeyError/noCredential`` when no passkey may answer).
    func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse
}
