// AuthenticationServices.framework as Swift imports the parts Keyway uses (ASFoundation.h,
// ASWebAuthenticationSession.h, ASWebAuthenticationSessionCallback.h, ASAuthorization.h,
// ASAuthorizationController.h, ASAuthorizationError.h, ASAuthorizationRequest.h,
// ASPublicKeyCredential.h, ASAuthorizationPublicKeyCredentialConstants.h,
// ASAuthorizationPublicKeyCredentialAssertion.h, ASAuthorizationPlatformPublicKeyCredential*.h),
// declarations only: the bodies trap.
//
// Built once per platform variant (`scripts/apple-typecheck`):
// - `APPLE_STUB_MACOS`: `ASPresentationAnchor` is `NSWindow`, and what is `API_UNAVAILABLE(macos)`
//   is absent; otherwise it is `UIWindow`.
// - `APPLE_STUB_CATALYST`: what is `API_UNAVAILABLE(macCatalyst)` is absent
//   (`performAutoFillAssistedRequests`).
// - `APPLE_STUB_UI_ACTOR_PROTOCOLS`: the presentation-context and delegate protocols are
//   main-actor isolated, as newer SDKs may declare them (`NS_SWIFT_UI_ACTOR`); the headers of
//   the iOS 17 SDK do not. Keyway's code must compile either way.
//
// Nullability follows the headers: a header without `NS_ASSUME_NONNULL` (the public-key assertion
// protocol) imports its object properties as implicitly unwrapped optionals, as Apple's
// documentation shows them (`var signature: Data!`).

import Foundation

#if APPLE_STUB_MACOS
    import AppKit
    /// `typedef NSWindow * ASPresentationAnchor` on macOS.
    public typealias ASPresentationAnchor = NSWindow
#else
    import UIKit
    /// `typedef UIWindow * ASPresentationAnchor` on iOS and Mac Catalyst.
    public typealias ASPresentationAnchor = UIWindow
#endif

@inline(never) @usableFromInline func _asStub() -> Never { fatalError("Apple API stub: type-checking only") }

// MARK: ASWebAuthenticationSession.h

/// `typedef NS_ERROR_ENUM(ASWebAuthenticationSessionErrorDomain, ASWebAuthenticationSessionErrorCode)`.
public struct ASWebAuthenticationSessionError: Error, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }

    public init(_ code: Code, userInfo: [String: Any] = [:]) { _asStub() }
    public var code: Code { _asStub() }
    public static var errorDomain: String { _asStub() }
}

#if APPLE_STUB_UI_ACTOR_PROTOCOLS
    /// `@protocol ASWebAuthenticationPresentationContextProviding <NSObject>`, main-actor isolated.
    @preconcurrency @MainActor
    public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
    }
#else
    /// `@protocol ASWebAuthenticationPresentationContextProviding <NSObject>`.
    public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
    }
#endif

/// `@interface ASWebAuthenticationSession : NSObject` (`new` and `init` unavailable).
open class ASWebAuthenticationSession: NSObject {
    /// `typedef void (^ASWebAuthenticationSessionCompletionHandler)(NSURL *_Nullable callbackURL,
    /// NSError *_Nullable error) NS_SWIFT_NAME(ASWebAuthenticationSession.CompletionHandler)`.
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// `@interface ASWebAuthenticationSessionCallback : NSObject`
    /// `NS_SWIFT_NAME(ASWebAuthenticationSession.Callback)` (iOS 17.4, macOS 14.4), Sendable.
    open class Callback: NSObject, @unchecked Sendable {
        /// `+ (instancetype)callbackWithCustomScheme:(NSString *)customScheme`.
        open class func customScheme(_ customScheme: String) -> Self { _asStub() }
        /// `+ (instancetype)callbackWithHTTPSHost:(NSString *)host path:(NSString *)path`.
        open class func https(host: String, path: String) -> Self { _asStub() }
        /// `- (BOOL)matchesURL:(NSURL *)url`.
        open func matchesURL(_ url: URL) -> Bool { _asStub() }
    }

    /// `- initWithURL:callbackURLScheme:completionHandler:` (API_TO_BE_DEPRECATED: no warning).
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {
        super.init()
    }

    /// `- initWithURL:callback:completionHandler:` (iOS 17.4, macOS 14.4).
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {
        super.init()
    }

    /// `@property (nonatomic, weak) id <ASWebAuthenticationPresentationContextProviding>
    /// presentationContextProvider`.
    open weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?
    /// `@property (nonatomic) BOOL prefersEphemeralWebBrowserSession`.
    open var prefersEphemeralWebBrowserSession: Bool = false
    /// `@property (nonatomic, nullable, copy) NSDictionary<NSString *, NSString *> *additionalHeaderFields`
    /// (iOS 17.4, macOS 14.4).
    open var additionalHeaderFields: [String: String]?
    /// `@property (nonatomic, readonly) BOOL canStart`.
    open var canStart: Bool { _asStub() }
    /// `- (BOOL)start`.
    open func start() -> Bool { _asStub() }
    /// `- (void)cancel`.
    open func cancel() { _asStub() }
}

// MARK: ASAuthorization.h, ASAuthorizationCredential.h, ASAuthorizationProvider.h, ASAuthorizationRequest.h

/// `@protocol ASAuthorizationCredential <NSObject, NSCopying, NSSecureCoding>`.
public protocol ASAuthorizationCredential: NSObjectProtocol {}
/// `@protocol ASAuthorizationProvider <NSObject>`.
public protocol ASAuthorizationProvider: NSObjectProtocol {}

/// `@interface ASAuthorization : NSObject`.
open class ASAuthorization: NSObject {
    open var provider: any ASAuthorizationProvider { _asStub() }
    open var credential: any ASAuthorizationCredential { _asStub() }
}

/// `@interface ASAuthorizationRequest : NSObject <NSCopying, NSSecureCoding>`.
open class ASAuthorizationRequest: NSObject {
    open var provider: any ASAuthorizationProvider { _asStub() }
}

// MARK: ASAuthorizationError.h

/// `typedef NS_ERROR_ENUM(ASAuthorizationErrorDomain, ASAuthorizationError)`.
public struct ASAuthorizationError: Error, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
    }

    public init(_ code: Code, userInfo: [String: Any] = [:]) { _asStub() }
    public var code: Code { _asStub() }
    public static var errorDomain: String { _asStub() }
}

// MARK: ASAuthorizationController.h

#if APPLE_STUB_UI_ACTOR_PROTOCOLS
    /// `@protocol ASAuthorizationControllerDelegate <NSObject>` (both methods `@optional`),
    /// main-actor isolated.
    @preconcurrency @MainActor
    public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
    }

    /// `@protocol ASAuthorizationControllerPresentationContextProviding <NSObject>`, main-actor
    /// isolated.
    @preconcurrency @MainActor
    public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
    }
#else
    /// `@protocol ASAuthorizationControllerDelegate <NSObject>` (both methods `@optional`).
    public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
    }

    /// `@protocol ASAuthorizationControllerPresentationContextProviding <NSObject>`.
    public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
    }
#endif

/// The `@optional` methods: a conforming type need not implement them.
extension ASAuthorizationControllerDelegate {
    public func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

/// `@interface ASAuthorizationController : NSObject`.
open class ASAuthorizationController: NSObject {
    /// `typedef NS_OPTIONS(NSUInteger, ASAuthorizationControllerRequestOptions)
    /// NS_SWIFT_NAME(ASAuthorizationController.RequestOptions)` (iOS 16, macOS 13).
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var preferImmediatelyAvailableCredentials: RequestOptions { .init(rawValue: 1 << 0) }
    }

    /// `- initWithAuthorizationRequests:` (`NS_DESIGNATED_INITIALIZER`).
    public init(authorizationRequests: [ASAuthorizationRequest]) { super.init() }

    open var authorizationRequests: [ASAuthorizationRequest] { _asStub() }
    /// `@property (nonatomic, weak, nullable) id <ASAuthorizationControllerDelegate> delegate`.
    open weak var delegate: (any ASAuthorizationControllerDelegate)?
    /// `@property (nonatomic, weak, nullable) id <ASAuthorizationControllerPresentationContextProviding>
    /// presentationContextProvider`.
    open weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    /// `- (void)performRequests`.
    open func performRequests() { _asStub() }
    /// `- (void)performRequestsWithOptions:` (iOS 16, macOS 13).
    open func performRequests(options: RequestOptions) { _asStub() }
    #if !APPLE_STUB_MACOS && !APPLE_STUB_CATALYST
        /// `- (void)performAutoFillAssistedRequests` API_AVAILABLE(ios(16.0))
        /// API_UNAVAILABLE(macos, macCatalyst, tvos, watchos).
        open func performAutoFillAssistedRequests() { _asStub() }
    #endif
    /// `- (void)cancel` (iOS 16, macOS 13).
    open func cancel() { _asStub() }
}

// MARK: ASAuthorizationPublicKeyCredentialConstants.h

/// `typedef NSString *ASAuthorizationPublicKeyCredentialUserVerificationPreference
/// NS_TYPED_EXTENSIBLE_ENUM`.
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var required: Self { _asStub() }
    public static var preferred: Self { _asStub() }
    public static var discouraged: Self { _asStub() }
}

/// `typedef NSString *ASAuthorizationPublicKeyCredentialAttestationKind NS_TYPED_EXTENSIBLE_ENUM`.
public struct ASAuthorizationPublicKeyCredentialAttestationKind: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var none: Self { _asStub() }
    public static var direct: Self { _asStub() }
    public static var indirect: Self { _asStub() }
    public static var enterprise: Self { _asStub() }
}

/// `typedef NS_ENUM(NSInteger, ASAuthorizationPublicKeyCredentialAttachment)` (iOS 16.6, macOS 13.5).
public enum ASAuthorizationPublicKeyCredentialAttachment: Int, Sendable {
    case platform = 0
    case crossPlatform = 1
}

// MARK: ASPublicKeyCredential.h (NS_ASSUME_NONNULL), ASAuthorizationPublicKeyCredentialRegistration.h,
// ASAuthorizationPublicKeyCredentialAssertion.h (no nullability: implicitly unwrapped)

/// `@protocol ASPublicKeyCredential <ASAuthorizationCredential>`.
public protocol ASPublicKeyCredential: ASAuthorizationCredential {
    var rawClientDataJSON: Data { get }
    var credentialID: Data { get }
}

/// `@protocol ASAuthorizationPublicKeyCredentialRegistration <ASPublicKeyCredential>`.
public protocol ASAuthorizationPublicKeyCredentialRegistration: ASPublicKeyCredential {
    var rawAttestationObject: Data? { get }
}

/// `@protocol ASAuthorizationPublicKeyCredentialAssertion <ASPublicKeyCredential>`.
public protocol ASAuthorizationPublicKeyCredentialAssertion: ASPublicKeyCredential {
    var rawAuthenticatorData: Data! { get }
    var userID: Data! { get }
    var signature: Data! { get }
}

// MARK: ASAuthorizationPlatformPublicKeyCredential*.h

/// `@interface ASAuthorizationPlatformPublicKeyCredentialDescriptor : NSObject`.
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    public init(credentialID: Data) { super.init() }
    open var credentialID: Data = Data()
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialProvider : NSObject <ASAuthorizationProvider>`.
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    public init(relyingPartyIdentifier: String) { super.init() }
    open var relyingPartyIdentifier: String { _asStub() }

    /// `- createCredentialRegistrationRequestWithChallenge:name:userID:`.
    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    {
        _asStub()
    }

    /// `- createCredentialAssertionRequestWithChallenge:`.
    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    {
        _asStub()
    }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest : ASAuthorizationRequest
/// <ASAuthorizationPublicKeyCredentialRegistrationRequest>`.
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    open var relyingPartyIdentifier: String = ""
    open var userID: Data = Data()
    open var name: String = ""
    /// `@property (nonatomic, nullable, copy) NSString *displayName`.
    open var displayName: String?
    open var challenge: Data = Data()
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .init("")
    open var attestationPreference: ASAuthorizationPublicKeyCredentialAttestationKind = .init("")
    /// `@property (nonatomic, copy) NSArray<ASAuthorizationPlatformPublicKeyCredentialDescriptor *>
    /// *excludedCredentials` (iOS 17.4, macOS 14.4).
    open var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    /// `@property (nonatomic) BOOL shouldShowHybridTransport` (iOS 16.4, macOS 13.3).
    open var shouldShowHybridTransport: Bool = true
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialAssertionRequest : ASAuthorizationRequest
/// <ASAuthorizationPublicKeyCredentialAssertionRequest>`.
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var relyingPartyIdentifier: String = ""
    open var challenge: Data = Data()
    open var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .init("")
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    open var shouldShowHybridTransport: Bool = true
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialRegistration : NSObject
/// <ASAuthorizationPublicKeyCredentialRegistration>`.
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject,
    ASAuthorizationPublicKeyCredentialRegistration
{
    open var rawClientDataJSON: Data { _asStub() }
    open var credentialID: Data { _asStub() }
    open var rawAttestationObject: Data? { _asStub() }
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { _asStub() }
}

/// `@interface ASAuthorizationPlatformPublicKeyCredentialAssertion : NSObject
/// <ASAuthorizationPublicKeyCredentialAssertion>`.
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationPublicKeyCredentialAssertion {
    open var rawClientDataJSON: Data { _asStub() }
    open var credentialID: Data { _asStub() }
    open var rawAuthenticatorData: Data! { _asStub() }
    open var userID: Data! { _asStub() }
    open var signature: Data! { _asStub() }
    open var attachment: ASAuthorizationPublicKeyCredentialAttachment { _asStub() }
}
