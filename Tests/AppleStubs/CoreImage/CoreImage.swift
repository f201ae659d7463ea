// The Core Image API the QR code view uses (CoreImage/CIContext.h, CIImage.h, CIFilter.h and
// CIFilterBuiltins.h — imported in Swift as `CoreImage.CIFilterBuiltins`, which
// `scripts/apple-typecheck` turns into an import of this module), declarations only.

@_exported import CoreGraphics
import Foundation

@inline(never) @usableFromInline func _ciStub() -> Never { fatalError("Apple API stub: type-checking only") }

/// `@interface CIImage : NSObject`.
open class CIImage: NSObject {
    /// `@property (NS_NONATOMIC_IOSONLY, readonly) CGRect extent`.
    open var extent: CGRect { _ciStub() }
    /// `- (CIImage *)imageByApplyingTransform:(CGAffineTransform)matrix` (`transformed(by:)`).
    open func transformed(by matrix: CGAffineTransform) -> CIImage { _ciStub() }
}

/// `@interface CIContext : NSObject`.
open class CIContext: NSObject {
    public override init() { super.init() }
    /// `- (nullable CGImageRef)createCGImage:(CIImage *)image fromRect:(CGRect)fromRect`.
    open func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? { _ciStub() }
}

/// `@interface CIFilter : NSObject`.
open class CIFilter: NSObject {
    /// `@property (readonly, nonatomic, nullable) CIImage *outputImage`.
    open var outputImage: CIImage? { _ciStub() }
}

/// `@protocol CIQRCodeGenerator <CIFilter>` (CIFilterBuiltins.h).
public protocol CIQRCodeGenerator: AnyObject {
    var message: Data { get set }
    var correctionLevel: String { get set }
    var outputImage: CIImage? { get }
}

private final class QRCodeGeneratorFilter: CIFilter, CIQRCodeGenerator {
    var message = Data()
    var correctionLevel = "M"
}

extension CIFilter {
    /// `+ (CIFilter<CIQRCodeGenerator> *)QRCodeGenerator` (CIFilterBuiltins.h).
    public class func qrCodeGenerator() -> CIFilter & CIQRCodeGenerator { QRCodeGeneratorFilter() }
}
