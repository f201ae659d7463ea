// The few UIKit classes Keyway's Apple-only files name (UIKit/UIWindow.h, UIView.h,
// UIResponder.h), declarations only. UIKit's classes are main-actor isolated
// (`NS_SWIFT_UI_ACTOR`), which also makes them Sendable: that is what matters here.

import Foundation

@MainActor open class UIResponder: NSObject {}
@MainActor open class UIView: UIResponder {}
@MainActor open class UIWindow: UIView {}

/// `typedef NSString * UITextContentType NS_TYPED_ENUM` (UIKit/UITextInputTraits.h).
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static var username: Self { .init("username") }
    public static var password: Self { .init("password") }
    public static var newPassword: Self { .init("new-password") }
    public static var oneTimeCode: Self { .init("one-time-code") }
    public static var emailAddress: Self { .init("email") }
    public static var telephoneNumber: Self { .init("tel") }
    public static var name: Self { .init("name") }
}

/// `typedef NS_ENUM(NSInteger, UIKeyboardType)` (UIKit/UITextInputTraits.h).
public enum UIKeyboardType: Int, Sendable {
    case `default` = 0
    case asciiCapable = 1
    case numbersAndPunctuation = 2
    case URL = 3
    case numberPad = 4
    case phonePad = 5
    case namePhonePad = 6
    case emailAddress = 7
    case decimalPad = 8
    case twitter = 9
    case webSearch = 10
    case asciiCapableNumberPad = 11
}

/// `@interface UIPasteboard : NSObject` (UIKit/UIPasteboard.h): the general pasteboard's text.
open class UIPasteboard: NSObject {
    /// `@property (class, nonatomic, readonly) UIPasteboard *generalPasteboard` (`general`).
    open class var general: UIPasteboard { fatalError("Apple API stub: type-checking only") }
    /// `@property (nullable, nonatomic, copy) NSString *string`.
    open var string: String?
}
