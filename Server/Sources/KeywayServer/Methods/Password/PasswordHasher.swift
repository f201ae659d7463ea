import Crypto
import CryptoExtras
import Foundation
import KeywayJOSE
import KeywayProtocol
import NIOPosix

/// Hashes and verifies passwords with scrypt (RFC 7914), stored as PHC strings:
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (standard base64 without padding, a 16-byte random salt,
/// a 32-byte hash). Passwords are hashed as the UTF-8 of their NFKC form.
///
/// Verification reads the parameters from the stored string, so they can be raised later:
/// ``Verification/needsRehash`` says when a stored hash is weaker than the current parameters.
/// ``verifyDummy(_:)`` costs what a real verification costs, for sign-ins naming no account.
///
/// scrypt takes tens of milliseconds and 32 MiB per hash at the default cost, so every
/// derivation runs on a small thread pool of its own, outside Swift's cooperative pool: a burst of
/// password attempts queues there instead of starving request handling.
struct PasswordHasher: Sendable {
    /// The scrypt cost parameters.
    struct Parameters: Sendable, Equatable {
        /// log2 of N, the CPU/memory cost.
        var logN: Int
        /// The block size.
        var r: Int
        /// The parallelism.
        var p: Int

        /// The production default: N = 2^15, r = 8, p = 1.
        static let standard = Parameters(logN: 15, r: 8, p: 1)

        /// Whether these are no weaker than `other` in every parameter.
        func isAtLeast(_ other: Parameters) -> Bool {
            logN >= other.logN && r >= other.r && p >= other.p
        }

        /// Bounds a stored string may name: a tampered hash cannot make verification take
        /// gigabytes or minutes.
        var isWithinLimits: Bool {
            (1...20).contains(logN) && (1...32).contains(r) && (1...16).contains(p)
        }
    }

    /// The result of checking a password against a stored hash.
    struct Verification: Sendable, Equatable {
        /// Whether the password matches.
        var matches: Bool
        /// Whether the stored hash uses weaker parameters than the hasher's: rehash it (with
        /// ``PasswordHasher/hash(_:)``) after a successful sign-in.
        var needsRehash: Bool
    }

    /// A stored hash that is not a PHC scrypt string this hasher accepts.
    struct MalformedHash: Error, CustomStringConvertible {
        var description: String { "The stored password hash is not a valid scrypt PHC string." }
    }

    static let saltLength = 16
    static let hashLength = 32

    /// The threads every derivation runs on: half the cores (at least one), so hashing never
    /// takes every core.
    private static let threadPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
        pool.start()
        return pool
    }()

    /// The parameters new hashes use.
    let parameters: Parameters

    /// A hasher producing hashes with `parameters` (tests lower the cost).
    init(parameters: Parameters = .standard) {
        self.parameters = parameters
    }

    /// A new PHC string for `password`, with a fresh random salt.
    func hash(_ password: Sensitive<String>) async throws -> String {
        let salt = SecureRandom.bytes(Self.saltLength)
        let parameters = self.parameters
        let derived = try await Self.derive(password, salt: salt, parameters: parameters, length: Self.hashLength)
        return Self.format(parameters: parameters, salt: salt, hash: derived)
    }

    /// Checks `password` against `stored` (a PHC string from ``hash(_:)``), comparing in
    /// constant time. Throws ``MalformedHash`` for a string it cannot read.
    func verify(_ password: Sensitive<String>, against stored: String) async throws -> Verification {
        let (storedParameters, salt, expected) = try Self.parse(stored)
        let derived = try await Self.derive(
            password, salt: salt, parameters: storedParameters, length: expected.count)
        return Verification(
            matches: ConstantTime.equals(derived, expected), needsRehash: !storedParameters.isAtLeast(parameters))
    }

    /// Spends what verifying `password` against a current hash would, and answers `false`: for
    /// a sign-in naming no account, so timing does not tell which accounts exist.
    func verifyDummy(_ password: Sensitive<String>) async -> Bool {
        let salt = SecureRandom.bytes(Self.saltLength)
        let derived = try? await Self.derive(password, salt: salt, parameters: parameters, length: Self.hashLength)
        _ = ConstantTime.equals(derived ?? [], [UInt8](repeating: 0, count: Self.hashLength))
        return false
    }

    /// scrypt itself, on the hashing threads.
    static func derive(_ password: Sensitive<String>, salt: [UInt8], parameters: Parameters, length: Int)
        async throws -> [UInt8]
    {
        try await threadPool.runIfActive {
            // NFKC, so one password typed on two keyboards (composed or decomposed accents) is one.
            try Self.rawDerive(
                Array(password.revealed.precomposedStringWithCompatibilityMapping.utf8), salt: salt,
                parameters: parameters, length: length)
        }
    }

    /// scrypt on the calling thread (RFC 7914 test vectors call it directly).
    static func rawDerive(_ password: [UInt8], salt: [UInt8], parameters: Parameters, length: Int) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: length, rounds: 1 << parameters.logN,
            blockSize: parameters.r, parallelism: parameters.p)
        return key.withUnsafeBytes { Array($0) }
    }

    /// `$scrypt$ln=…,r=…,p=…$<salt>$<hash>`.
    static func format(parameters: Parameters, salt: [UInt8], hash: [UInt8]) -> String {
        "$scrypt$ln=\(parameters.logN),r=\(parameters.r),p=\(parameters.p)$\(encode(salt))$\(encode(hash))"
    }

    /// Reads a PHC scrypt string; refuses parameters outside ``Parameters/isWithinLimits``.
    static func parse(_ stored: String) throws -> (Parameters, salt: [UInt8], hash: [UInt8]) {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { throw MalformedHash() }
        var values: [String: Int] = [:]
        for field in parts[2].split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let value = Int(pair[1]), values[String(pair[0])] == nil else {
                throw MalformedHash()
            }
            values[String(pair[0])] = value
        }
        guard values.count == 3, let logN = values["ln"], let r = values["r"], let p = values["p"] else {
            throw MalformedHash()
        }
        let parameters = Parameters(logN: logN, r: r, p: p)
        guard parameters.isWithinLimits, let salt = decode(parts[3]), let hash = decode(parts[4]),
            salt.count >= 8, (16...64).contains(hash.count)
        else { throw MalformedHash() }
        return (parameters, salt, hash)
    }

    /// Standard base64 without padding, as PHC strings use it.
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    private static func decode(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, !text.contains("=") else { return nil }
        let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map { Array($0) }
    }
}
