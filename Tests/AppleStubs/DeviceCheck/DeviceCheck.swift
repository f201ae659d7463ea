// DeviceCheck.framework's App Attest service as Swift imports it (DeviceCheck/DCAppAttestService.h,
// DCError.h), declarations only: the bodies trap. The completion-handler methods also import as
// `async` methods; `DCAppAttestService` is not marked Sendable.

import Foundation

@inline(never) @usableFromInline func _dcStub() -> Never { fatalError("Apple API stub: type-checking only") }

/// `@interface DCAppAttestService : NSObject` (iOS 14, macOS 11, tvOS 15, visionOS 1).
open class DCAppAttestService: NSObject {
    /// `@property (class, readonly) DCAppAttestService *sharedService` (`shared` in Swift).
    open class var shared: DCAppAttestService { _dcStub() }

    /// `@property (getter=isSupported, readonly) BOOL supported`.
    open var isSupported: Bool { _dcStub() }

    /// `- generateKeyWithCompletionHandler:(void (^)(NSString *keyId, NSError *error))`.
    open func generateKey(completionHandler: @escaping @Sendable (String?, (any Error)?) -> Void) { _dcStub() }
    open func generateKey() async throws -> String { _dcStub() }

    /// `- attestKey:clientDataHash:completionHandler:(void (^)(NSData *attestationObject, NSError *error))`.
    open func attestKey(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        _dcStub()
    }
    open func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data { _dcStub() }

    /// `- generateAssertion:clientDataHash:completionHandler:(void (^)(NSData *assertionObject, NSError *error))`.
    open func generateAssertion(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        _dcStub()
    }
    open func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data { _dcStub() }
}

/// `typedef NS_ERROR_ENUM(DCErrorDomain, DCErrorCode)`.
public struct DCError: Error, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case unknownSystemFailure = 0
        case featureUnsupported = 1
        case invalidInput = 2
        case invalidKey = 3
        case serverUnavailable = 4
    }

    public var code: Code { _dcStub() }
    public static var errorDomain: String { _dcStub() }
}
