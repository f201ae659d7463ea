// The few AppKit classes Keyway's Apple-only files name (AppKit/NSWindow.h, NSResponder.h),
// declarations only. AppKit's windows are main-actor isolated (`NS_SWIFT_UI_ACTOR`), which also
// makes them Sendable: that is what matters here.

import Foundation

@MainActor open class NSResponder: NSObject {}
@MainActor open class NSWindow: NSResponder {}

/// `@interface NSPasteboard : NSObject` (AppKit/NSPasteboard.h).
open class NSPasteboard: NSObject {
    /// `typedef NSString * NSPasteboardType NS_TYPED_EXTENSIBLE_ENUM` (`NSPasteboard.PasteboardType`).
    public struct PasteboardType: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// `NSPasteboardTypeString`.
        public static var string: PasteboardType { .init("public.utf8-plain-text") }
    }

    /// `@property (class, readonly, strong) NSPasteboard *generalPasteboard` (`general`).
    open class var general: NSPasteboard { fatalError("Apple API stub: type-checking only") }
    /// `- (NSInteger)clearContents`.
    @discardableResult open func clearContents() -> Int { fatalError("Apple API stub: type-checking only") }
    /// `- (BOOL)setString:(NSString *)string forType:(NSPasteboardType)dataType`.
    @discardableResult open func setString(_ string: String, forType dataType: PasteboardType) -> Bool {
        fatalError("Apple API stub: type-checking only")
    }
}
