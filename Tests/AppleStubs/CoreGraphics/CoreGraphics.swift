// The Core Graphics types Keyway's Apple-only files name that swift-corelibs-foundation does not
// have (CoreGraphics/CGAffineTransform.h, CGImage.h), declarations only. `CGFloat`, `CGRect`,
// `CGSize` and `CGPoint` are Foundation's on Linux.

import Foundation

@inline(never) @usableFromInline func _cgStub() -> Never { fatalError("Apple API stub: type-checking only") }

/// `struct CGAffineTransform`.
public struct CGAffineTransform: Equatable, Sendable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }
    /// `CGAffineTransformMakeScale`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public static var identity: CGAffineTransform { .init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
}

/// `CGImageRef`, imported as a class; not declared Sendable here.
public final class CGImage {
    public var width: Int { _cgStub() }
    public var height: Int { _cgStub() }
}
