// LocalAuthentication.framework as Swift imports it (LocalAuthentication/LAContext.h,
// LAError.h, LABiometryType in LAContext.h), declarations only: the bodies trap.
//
// `LAContext` is an Objective-C class that is not marked Sendable. Its reply-block methods also
// import as `async` methods (the Clang importer's completion-handler rule). `NS_ENUM`s import as
// enums that are not frozen (`@unknown default` applies): this module is built with library
// evolution for that reason.

import Foundation

@inline(never) @usableFromInline func _laStub() -> Never { fatalError("Apple API stub: type-checking only") }

/// `NSError **` as Foundation on Apple platforms imports it (`NSErrorPointer`).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// `typedef NS_ENUM(NSInteger, LAPolicy)`.
public enum LAPolicy: Int, Sendable {
    case deviceOwnerAuthenticationWithBiometrics = 1
    case deviceOwnerAuthentication = 2
    case deviceOwnerAuthenticationWithWatch = 3
    case deviceOwnerAuthenticationWithBiometricsOrWatch = 4
    case deviceOwnerAuthenticationWithWristDetection = 5
}

/// `typedef NS_ENUM(NSInteger, LABiometryType)` (`LABiometryTypeOpticID`: iOS 17, visionOS 1).
public enum LABiometryType: Int, Sendable {
    case none = 0
    case touchID = 1
    case faceID = 2
    case opticID = 4
}

/// `extern NSString *const LAErrorDomain`.
public var LAErrorDomain: String { _laStub() }

/// `typedef NS_ERROR_ENUM(LAErrorDomain, LAError)`: imported as a struct wrapping the error, with
/// its `Code`.
public struct LAError: Error, Hashable, Sendable {
    public enum Code: Int, Sendable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        case biometryNotAvailable = -6
        case biometryNotEnrolled = -7
        case biometryLockout = -8
        case appCancel = -9
        case invalidContext = -10
        case biometryNotPaired = -11
        case biometryDisconnected = -12
        case invalidDimensions = -14
        case companionNotAvailable = -1000
        case notInteractive = -1004
    }

    public init(_ code: Code, userInfo: [String: Any] = [:]) { _laStub() }
    public var code: Code { _laStub() }
    public static var errorDomain: String { _laStub() }
}

/// `@interface LAContext : NSObject`.
open class LAContext: NSObject {
    public override init() { super.init() }

    /// `- (BOOL)canEvaluatePolicy:(LAPolicy)policy error:(NSError **)error`.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool { _laStub() }

    /// `- (void)evaluatePolicy:(LAPolicy)policy localizedReason:(NSString *)localizedReason
    /// reply:(void(^)(BOOL success, NSError * __nullable error))reply`.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        _laStub()
    }

    /// The `async` import of `evaluatePolicy:localizedReason:reply:`.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool { _laStub() }

    /// `- (void)invalidate`.
    open func invalidate() { _laStub() }

    /// `@property (nonatomic, readonly) LABiometryType biometryType`.
    open var biometryType: LABiometryType { _laStub() }

    /// `@property (nonatomic, nullable, copy) NSString *localizedReason` and the other settable
    /// properties an app commonly uses.
    open var localizedReason: String = ""
    open var localizedFallbackTitle: String?
    open var localizedCancelTitle: String?
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval = 0
    open var interactionNotAllowed: Bool = false
}
