import Crypto
import Foundation
import Keyway
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol

/// A WebAuthn authenticator in software, for tests, Linux and command-line tools: it makes real
/// passkeys — P-256 (ES256) keys by default, Ed25519 (EdDSA) as an option — and signs with them as
/// a security key would, with client data, authenticator data and attestation objects a relying
/// party verifies like any other.
///
/// It is a **software key, not hardware**: its private keys are bytes in the ``SecureStorage`` it
/// is given (under ``storageKey``, one entry for all of them), readable by whatever can read that
/// storage, and it verifies nobody (``Configuration/userVerifies`` only sets the flag). Use the
/// platform's passkeys (``PlatformPasskeyAuthenticator``) in an app.
///
/// ```swift
/// let authenticator = SoftwarePasskeyAuthenticator(storage: storage)
/// await keyway.flow.registerPasskey(using: authenticator, name: "Test key")
/// ```
///
/// Its passkeys are discoverable: a registration for a relying party and user handle it already
/// has replaces that passkey (as CTAP2 authenticators do). A signature uses the passkeys of the
/// options' relying party — only those of `allowCredentials` when it names some — and the one
/// ``Selection`` picks, by default the one made last. Calls run one at a time, so counters never
/// go back, and two instances over one storage see each other's passkeys.
public actor SoftwarePasskeyAuthenticator: PasskeyAuthenticator {
    /// The storage key used unless another is given.
    public static let defaultStorageKey = "keyway.passkeys.software"

    /// Where the passkeys are kept.
    public nonisolated let storage: any SecureStorage
    /// The key of their storage entry.
    public nonisolated let storageKey: String
    /// How it behaves now.
    public private(set) var configuration: Configuration
    /// Which passkey answers when several may.
    public private(set) var selection: Selection = .mostRecent
    private let random: any KeywayRandom
    /// Whether a call holds the store; later calls wait in `waiters`.
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// An authenticator keeping its passkeys in `storage`.
    ///
    /// - Parameters:
    ///   - storage: Where the passkeys are kept (in memory by default: they die with it).
    ///   - storageKey: The key of their entry; two authenticators with one storage and key share
    ///     their passkeys.
    ///   - configuration: How it behaves.
    ///   - random: Where credential IDs come from.
    public init(
        storage: any SecureStorage = InMemorySecureStorage(), storageKey: String = defaultStorageKey,
        configuration: Configuration = Configuration(), random: any KeywayRandom = SystemKeywayRandom()
    ) {
        self.storage = storage
        self.storageKey = storageKey
        self.configuration = configuration
        self.random = random
    }

    /// Changes how it behaves from the next call on (the passkeys it has keep their key type and
    /// whether they are synced).
    ///
    /// - Parameter configuration: The new configuration.
    public func setConfiguration(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Chooses which passkey answers when several may.
    ///
    /// - Parameter selection: The rule.
    public func select(_ selection: Selection) {
        self.selection = selection
    }

    // MARK: WebAuthn

    /// Makes a passkey for `options`: a new key of ``Configuration/algorithm`` (which
    /// `pubKeyCredParams` must list; an empty list accepts ES256), a random 32-byte credential ID,
    /// the authenticator data with the attested credential data (counter 0) and the attestation
    /// object of ``Configuration/attestation``.
    ///
    /// - Parameter options: The step's creation options.
    /// - Returns: The new credential.
    /// - Throws: ``PasskeyError/alreadyRegistered`` when it holds one of `excludeCredentials` for
    ///   the relying party; ``PasskeyError/notSupported(_:)`` when its algorithm is not accepted;
    ///   ``PasskeyError/invalidOptions(_:)`` for options it cannot read;
    ///   ``PasskeyError/failed(_:)`` when the storage fails.
    public func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws(PasskeyError)
        -> PasskeyRegistrationResponse
    {
        let rpId = options.rp.id
        guard !rpId.isEmpty else { throw .invalidOptions("The relying-party ID is empty.") }
        let challenge = try PasskeyWire.challenge(options)
        let userHandle = try PasskeyWire.userID(options)
        let excluded = Set(try PasskeyWire.credentialIDs(options.excludeCredentials).map { Base64URL.encode($0) })
        let configuration = self.configuration
        let accepted = options.pubKeyCredParams.filter { $0.type == "public-key" }.map(\.alg)
        guard (accepted.isEmpty ? [-7, -257] : accepted).contains(configuration.algorithm.rawValue) else {
            throw .notSupported(
                "this authenticator signs with COSE algorithm \(configuration.algorithm.rawValue), which the relying party does not accept.")
        }

        await acquire()
        defer { release() }
        var store = try await load()
        if store.credentials.contains(where: { $0.rpId == rpId && excluded.contains($0.credentialID) }) {
            throw .alreadyRegistered
        }
        let key = SoftwareSigningKey.generate(configuration.algorithm)
        let credentialID = random.bytes(32)
        var flags: AuthenticatorFlags = [.userPresent]
        if configuration.userVerifies { flags.insert(.userVerified) }
        if configuration.synced { flags.formUnion([.backupEligible, .backedUp]) }
        let attested = WebAuthnData.attestedCredentialData(
            aaguid: configuration.aaguid, credentialID: credentialID, publicKey: Array(key.coseKey.encoded))
        let authenticatorData = WebAuthnData.authenticatorData(
            rpId: rpId, flags: flags, counter: 0, attestedCredential: attested)
        let clientDataJSON = WebAuthnData.clientDataJSON(
            type: "webauthn.create", challenge: Base64URL.encode(challenge), origin: origin(for: rpId))
        let attestationObject: [UInt8]
        switch configuration.attestation {
        case .none:
            attestationObject = WebAuthnData.attestationObject(
                format: "none", statement: .map([]), authenticatorData: authenticatorData)
        case .packed:
            let signature = try key.sign(
                WebAuthnData.signedBytes(authenticatorData: authenticatorData, clientDataJSON: clientDataJSON))
            attestationObject = WebAuthnData.attestationObject(
                format: "packed",
                statement: .map([
                    (.text("alg"), .int(configuration.algorithm.rawValue)), (.text("sig"), .bytes(Data(signature))),
                ]),
                authenticatorData: authenticatorData)
        }
        let handle = Base64URL.encode(userHandle)
        // A discoverable credential replaces the relying party's one for the same user.
        store.credentials.removeAll { $0.rpId == rpId && $0.userHandle == handle }
        store.credentials.append(
            StoredSoftwarePasskey(
                credentialID: Base64URL.encode(credentialID), rpId: rpId, userHandle: handle,
                userName: options.user.name, displayName: options.user.displayName, algorithm: configuration.algorithm,
                privateKey: Base64URL.encode(key.rawPrivateKey), counter: 0, synced: configuration.synced,
                createdAt: Date()))
        try await save(store)
        return PasskeyWire.registration(
            credentialID: Data(credentialID), clientDataJSON: Data(clientDataJSON),
            attestationObject: Data(attestationObject), attachment: "platform", transports: ["internal"])
    }

    /// Signs the challenge of `options` with a passkey of its relying party: one of
    /// `allowCredentials` when it names some, else any (a discoverable sign-in); among several,
    /// the one ``selection`` picks. The counter goes up by one first (it stays 0 for a synced
    /// passkey). The signature is over the authenticator data and SHA-256 of the client data's
    /// JSON: DER for ES256, raw for EdDSA. The answer carries the passkey's user handle.
    ///
    /// - Parameter options: The step's request options.
    /// - Returns: The signature.
    /// - Throws: ``PasskeyError/noCredential`` when no passkey may answer;
    ///   ``PasskeyError/invalidOptions(_:)`` for options it cannot read;
    ///   ``PasskeyError/failed(_:)`` when the storage fails.
    public func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws(PasskeyError)
        -> PasskeyAssertionResponse
    {
        let rpId = options.rpID
        guard !rpId.isEmpty else { throw .invalidOptions("The relying-party ID is empty.") }
        let challenge = try PasskeyWire.challenge(options)
        let allowed = Set(try PasskeyWire.credentialIDs(options.allowCredentials).map { Base64URL.encode($0) })
        let configuration = self.configuration

        await acquire()
        defer { release() }
        var store = try await load()
        var candidates = store.credentials.indices.filter { store.credentials[$0].rpId == rpId }
        if !options.allowCredentials.isEmpty {
            candidates = candidates.filter { allowed.contains(store.credentials[$0].credentialID) }
        }
        switch selection {
        case .mostRecent: break
        case .userName(let name): candidates = candidates.filter { store.credentials[$0].userName == name }
        case .credentialID(let id): candidates = candidates.filter { store.credentials[$0].credentialID == id }
        }
        guard let index = candidates.last else { throw .noCredential }
        var credential = store.credentials[index]
        let key = try SoftwareSigningKey(credential.algorithm, raw: credential.privateKey)
        if !credential.synced { credential.counter &+= 1 }
        var flags: AuthenticatorFlags = [.userPresent]
        if configuration.userVerifies { flags.insert(.userVerified) }
        if credential.synced { flags.formUnion([.backupEligible, .backedUp]) }
        let authenticatorData = WebAuthnData.authenticatorData(rpId: rpId, flags: flags, counter: credential.counter)
        let clientDataJSON = WebAuthnData.clientDataJSON(
            type: "webauthn.get", challenge: Base64URL.encode(challenge), origin: origin(for: rpId))
        let signature = try key.sign(
            WebAuthnData.signedBytes(authenticatorData: authenticatorData, clientDataJSON: clientDataJSON))
        store.credentials[index] = credential
        try await save(store)
        return PasskeyWire.assertion(
            credentialID: Base64URL.decode(credential.credentialID) ?? Data(),
            clientDataJSON: Data(clientDataJSON), authenticatorData: Data(authenticatorData), signature: Data(signature),
            userHandle: Base64URL.decode(credential.userHandle), attachment: "platform")
    }

    // MARK: The passkeys it holds

    /// Every passkey it holds, oldest first, without their private keys.
    ///
    /// - Parameter relyingPartyID: Only those of this relying party; `nil` for all.
    /// - Returns: The passkeys.
    /// - Throws: ``PasskeyError/failed(_:)`` when the storage fails.
    public func credentials(relyingPartyID: String? = nil) async throws(PasskeyError) -> [SoftwarePasskey] {
        await acquire()
        defer { release() }
        return try await load().credentials.filter { relyingPartyID == nil || $0.rpId == relyingPartyID }.map(\.summary)
    }

    /// Forgets a passkey (a lost device, for a test): the relying party still lists it, but it
    /// never signs again. Forgetting one it does not hold succeeds.
    ///
    /// - Parameter id: Its credential ID, base64url.
    /// - Throws: ``PasskeyError/failed(_:)`` when the storage fails.
    public func deleteCredential(id: String) async throws(PasskeyError) {
        await acquire()
        defer { release() }
        var store = try await load()
        store.credentials.removeAll { $0.credentialID == id }
        try await save(store)
    }

    /// Forgets every passkey (the storage entry is removed).
    ///
    /// - Throws: ``PasskeyError/failed(_:)`` when the storage fails.
    public func deleteAllCredentials() async throws(PasskeyError) {
        await acquire()
        defer { release() }
        do {
            try await storage.delete(key: storageKey)
        } catch {
            throw .failed("The passkeys cannot be removed: \(error.description)")
        }
    }

    // MARK: Storage

    private func origin(for rpId: String) -> String {
        configuration.origin ?? "https://\(rpId)"
    }

    private func load() async throws(PasskeyError) -> SoftwarePasskeyStore {
        let data: Data?
        do {
            data = try await storage.read(key: storageKey)
        } catch {
            throw .failed("The passkeys cannot be read: \(error.description)")
        }
        guard let data else { return SoftwarePasskeyStore() }
        guard let store = try? JSONDecoder().decode(SoftwarePasskeyStore.self, from: data), store.version == 1 else {
            throw .failed("The stored passkeys cannot be read.")
        }
        return store
    }

    private func save(_ store: SoftwarePasskeyStore) async throws(PasskeyError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(store) else { throw .failed("The passkeys cannot be encoded.") }
        do {
            try await storage.write(key: storageKey, data: data)
        } catch {
            throw .failed("The passkeys cannot be kept: \(error.description)")
        }
    }

    /// Waits until no other call holds the store (the actor is reentrant at every storage call).
    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the store to the next waiting call, or frees it.
    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// A passkey's private key.
enum SoftwareSigningKey {
    case p256(P256.Signing.PrivateKey)
    case ed25519(Curve25519.Signing.PrivateKey)

    /// A new key of `algorithm`.
    static func generate(_ algorithm: SoftwarePasskeyAuthenticator.Algorithm) -> SoftwareSigningKey {
        switch algorithm {
        case .es256: .p256(P256.Signing.PrivateKey())
        case .eddsa: .ed25519(Curve25519.Signing.PrivateKey())
        }
    }

    /// The stored key `raw` (base64url) of `algorithm`.
    init(_ algorithm: SoftwarePasskeyAuthenticator.Algorithm, raw: String) throws(PasskeyError) {
        guard let bytes = Base64URL.decode(raw) else { throw .failed("A stored passkey's key cannot be read.") }
        do {
            switch algorithm {
            case .es256: self = .p256(try P256.Signing.PrivateKey(rawRepresentation: bytes))
            case .eddsa: self = .ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: bytes))
            }
        } catch {
            throw .failed("A stored passkey's key cannot be read.")
        }
    }

    /// The private key's raw representation.
    var rawPrivateKey: Data {
        switch self {
        case .p256(let key): key.rawRepresentation
        case .ed25519(let key): key.rawRepresentation
        }
    }

    /// The public key as a COSE key.
    var coseKey: CBOR {
        switch self {
        case .p256(let key): WebAuthnData.coseKey(key.publicKey)
        case .ed25519(let key): WebAuthnData.coseKey(key.publicKey)
        }
    }

    /// A signature over `bytes`: ECDSA with SHA-256 in DER, or Ed25519's 64 bytes.
    func sign(_ bytes: [UInt8]) throws(PasskeyError) -> [UInt8] {
        do {
            switch self {
            case .p256(let key): return Array(try key.signature(for: bytes).derRepresentation)
            case .ed25519(let key): return Array(try key.signature(for: bytes))
            }
        } catch {
            throw .failed("The passkey could not sign: \(error)")
        }
    }
}
