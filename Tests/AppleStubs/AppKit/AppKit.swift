// The few AppKit classes Keyway's Apple-only files name (AppKit/NSWindow.h, NSResponder.h),
// declarations only. AppKit's windows are main-actor isolated (`NS_SWIFT_UI_ACTOR`), which also
// makes them Sendable: that is what matters here.

import Foundation

@MainActor open class NSResponder: NSObject {}
@MainActor open class NSWindow: NSResponder {}
