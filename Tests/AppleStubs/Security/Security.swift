// Security.framework as Swift imports it (Security/SecBase.h, SecItem.h, SecAccessControl.h,
// SecTrust.h, SecKey.h, SecCertificate.h, SecPolicy.h), with the Core Foundation types these
// headers use (CoreFoundation/CFBase.h, CFString.h, CFError.h …), declarations only: the bodies
// trap. Enough for `scripts/apple-typecheck` to type-check Keyway's Apple-only files on Linux.
//
// Rules of the transcription, as the Clang importer applies them:
// - C functions import as global functions whose result may go unused (`@discardableResult`).
// - `extern const CFStringRef kSec…` constants import as read-only globals of type `CFString`.
// - `CF_ENUM(OSStatus)` constants (`errSec…`) import as `OSStatus` values.
// - Core Foundation types bridge with `as` to their Foundation counterparts (`CFString` with
//   `NSString` and `String`, `CFDictionary` with `NSDictionary`, `CFData` with `NSData` and
//   `Data`, `CFError` with `NSError`); here they are those Foundation classes.
// - CF and Security object types (`SecKey`, `SecTrust` …) are classes; they are not declared
//   `Sendable` here (the headers do not mark them so).

import Foundation
import FoundationNetworking  // URLProtectionSpace and URLCredential: Foundation on Apple platforms

@inline(never) @usableFromInline func _securityStub() -> Never { fatalError("Apple API stub: type-checking only") }

// MARK: Core Foundation (CFBase.h, CFString.h, CFDictionary.h, CFData.h, CFArray.h, CFError.h)

public typealias CFTypeRef = AnyObject
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFData = NSData
public typealias CFArray = NSArray
public typealias CFError = NSError
public typealias OSStatus = Int32
public typealias CFIndex = Int

/// `CFAllocatorRef`.
public final class CFAllocator {}
/// `const CFAllocatorRef kCFAllocatorDefault` (imported as an implicitly unwrapped optional).
public var kCFAllocatorDefault: CFAllocator! { _securityStub() }

// MARK: SecBase.h

public final class SecKey {}
public final class SecCertificate {}
public final class SecTrust {}
public final class SecPolicy {}
public final class SecAccessControl {}

public var errSecSuccess: OSStatus { 0 }
public var errSecUserCanceled: OSStatus { -128 }
public var errSecAuthFailed: OSStatus { -25293 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecMissingEntitlement: OSStatus { -34018 }

/// `CFStringRef SecCopyErrorMessageString(OSStatus status, void *reserved)`.
@discardableResult
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    _securityStub()
}

// MARK: SecItem.h

public var kSecClass: CFString { _securityStub() }
public var kSecClassGenericPassword: CFString { _securityStub() }
public var kSecAttrService: CFString { _securityStub() }
public var kSecAttrAccount: CFString { _securityStub() }
public var kSecAttrAccessGroup: CFString { _securityStub() }
public var kSecAttrAccessible: CFString { _securityStub() }
public var kSecAttrAccessControl: CFString { _securityStub() }
public var kSecAttrAccessibleWhenUnlocked: CFString { _securityStub() }
public var kSecAttrAccessibleAfterFirstUnlock: CFString { _securityStub() }
public var kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString { _securityStub() }
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { _securityStub() }
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { _securityStub() }
public var kSecAttrKeyType: CFString { _securityStub() }
public var kSecAttrKeySizeInBits: CFString { _securityStub() }
public var kSecAttrKeyTypeRSA: CFString { _securityStub() }
public var kSecAttrKeyTypeECSECPrimeRandom: CFString { _securityStub() }
public var kSecAttrTokenID: CFString { _securityStub() }
public var kSecAttrTokenIDSecureEnclave: CFString { _securityStub() }
public var kSecValueData: CFString { _securityStub() }
public var kSecReturnData: CFString { _securityStub() }
public var kSecReturnAttributes: CFString { _securityStub() }
public var kSecMatchLimit: CFString { _securityStub() }
public var kSecMatchLimitOne: CFString { _securityStub() }
public var kSecMatchLimitAll: CFString { _securityStub() }
/// API_AVAILABLE(macos(10.15), ios(13.0)).
public var kSecUseDataProtectionKeychain: CFString { _securityStub() }
/// API_AVAILABLE(macos(10.11), ios(9.0)).
public var kSecUseAuthenticationContext: CFString { _securityStub() }

/// `OSStatus SecItemCopyMatching(CFDictionaryRef query, CFTypeRef *result)`.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    _securityStub()
}

/// `OSStatus SecItemAdd(CFDictionaryRef attributes, CFTypeRef *result)`.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    _securityStub()
}

/// `OSStatus SecItemUpdate(CFDictionaryRef query, CFDictionaryRef attributesToUpdate)`.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { _securityStub() }

/// `OSStatus SecItemDelete(CFDictionaryRef query)`.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { _securityStub() }

// MARK: SecAccessControl.h

/// `typedef CF_OPTIONS(CFOptionFlags, SecAccessControlCreateFlags)`.
public struct SecAccessControlCreateFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static var userPresence: SecAccessControlCreateFlags { .init(rawValue: 1 << 0) }
    public static var biometryAny: SecAccessControlCreateFlags { .init(rawValue: 1 << 1) }
    public static var biometryCurrentSet: SecAccessControlCreateFlags { .init(rawValue: 1 << 3) }
    public static var devicePasscode: SecAccessControlCreateFlags { .init(rawValue: 1 << 4) }
    public static var or: SecAccessControlCreateFlags { .init(rawValue: 1 << 14) }
    public static var and: SecAccessControlCreateFlags { .init(rawValue: 1 << 15) }
    public static var privateKeyUsage: SecAccessControlCreateFlags { .init(rawValue: 1 << 30) }
    public static var applicationPassword: SecAccessControlCreateFlags { .init(rawValue: 1 << 31) }
}

/// `SecAccessControlRef SecAccessControlCreateWithFlags(CFAllocatorRef allocator, CFTypeRef protection,
/// SecAccessControlCreateFlags flags, CFErrorRef *error)`: the error comes back retained, hence
/// `Unmanaged`.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    _securityStub()
}

// MARK: SecPolicy.h, SecTrust.h, SecCertificate.h, SecKey.h

/// `SecPolicyRef SecPolicyCreateSSL(Boolean server, CFStringRef hostname)`.
@discardableResult
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy { _securityStub() }

/// `OSStatus SecTrustSetPolicies(SecTrustRef trust, CFTypeRef policies)`.
@discardableResult
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus { _securityStub() }

/// `bool SecTrustEvaluateWithError(SecTrustRef trust, CFErrorRef *error)` (macOS 10.14, iOS 12).
@discardableResult
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    _securityStub()
}

/// `CFArrayRef SecTrustCopyCertificateChain(SecTrustRef trust)` (macOS 12, iOS 15).
@discardableResult
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? { _securityStub() }

/// `SecKeyRef SecCertificateCopyKey(SecCertificateRef certificate)` (macOS 10.14, iOS 12).
@discardableResult
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? { _securityStub() }

/// `CFDictionaryRef SecKeyCopyAttributes(SecKeyRef key)`.
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? { _securityStub() }

/// `CFDataRef SecKeyCopyExternalRepresentation(SecKeyRef key, CFErrorRef *error)`: the error
/// comes back retained, hence `Unmanaged`.
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{
    _securityStub()
}

// MARK: Foundation's Security-dependent API (NSURLProtectionSpace.h, NSURLCredential.h)

extension URLProtectionSpace {
    /// `@property (nullable, readonly) SecTrustRef serverTrust` (the server-trust method only).
    public var serverTrust: SecTrust? { _securityStub() }
}

extension URLCredential {
    /// `- (instancetype)initWithTrust:(SecTrustRef)trust`.
    public convenience init(trust: SecTrust) {
        self.init(user: "", password: "", persistence: .none)
        _securityStub()
    }
}
