import Crypto
import Foundation
import KeywayJOSE
import KeywayPowerAuth

/// HOTP (RFC 4226) and TOTP (RFC 6238) codes, as authenticator apps compute them.
struct OneTimePassword: Sendable, Equatable {
    enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"
    }

    let secret: [UInt8]
    var algorithm: Algorithm = .sha1
    var digits: Int = 6
    /// The TOTP time step, in seconds.
    var period: Int = 30

    /// The HOTP value for `counter` (RFC 4226 §5.3): HMAC, dynamic truncation, modulo 10^digits.
    func hotp(counter: UInt64) -> String {
        var bigEndian = counter.bigEndian
        let message = withUnsafeBytes(of: &bigEndian) { Data($0) }
        let key = SymmetricKey(data: secret)
        let mac: [UInt8] =
            switch algorithm {
            case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
            case .sha256: Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
            case .sha512: Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
            }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The time step of `time` (RFC 6238 §4: T = floor((unix time − T0) / X), T0 = 0).
    func step(at time: Date) -> UInt64 {
        UInt64(max(0, time.timeIntervalSince1970) / Double(period))
    }

    /// The TOTP value at `time`.
    func totp(at time: Date) -> String {
        hotp(counter: step(at: time))
    }

    /// The step a code matches within `window` steps either side of `time`, compared in constant
    /// time; `nil` when none does. Steps at or before `usedUpTo` (the last step a code was
    /// accepted for) never match, so a code cannot be used twice.
    func verify(_ code: String, at time: Date, window: Int = 1, usedUpTo: UInt64? = nil) -> UInt64? {
        guard code.count == digits, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else { return nil }
        let current = Int64(step(at: time))
        var matched: UInt64?
        for offset in -window...window {
            let candidate = current + Int64(offset)
            guard candidate >= 0 else { continue }
            // Every candidate is computed and compared, whatever matched before.
            let equal = ConstantTime.equals(hotp(counter: UInt64(candidate)), code)
            if equal, matched == nil, usedUpTo.map({ UInt64(candidate) > $0 }) ?? true { matched = UInt64(candidate) }
        }
        return matched
    }

    /// The Key Uri Format an authenticator app scans:
    /// `otpauth://totp/ISSUER:ACCOUNT?secret=…&issuer=ISSUER&algorithm=…&digits=…&period=…`.
    func provisioningURI(issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        func escape(_ value: String) -> String { value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value }
        return "otpauth://totp/\(escape(issuer)):\(escape(account))?secret=\(Base32.encode(secret, padding: false))"
            + "&issuer=\(escape(issuer))&algorithm=\(algorithm.rawValue)&digits=\(digits)&period=\(period)"
    }

    /// A new secret of `bytes` random bytes (at least 20: 160 bits, RFC 4226 §4).
    static func newSecret(bytes: Int = 20) -> [UInt8] {
        SecureRandom.bytes(max(20, bytes))
    }
}
