// CryptoKit's Secure Enclave keys as Swift declares them (CryptoKit's interface:
// `SecureEnclave.P256.Signing.PrivateKey`), declarations only: the bodies trap. The P-256 public
// key and signature types are swift-crypto's, which on Apple platforms re-exports CryptoKit's, so
// they are the same types there.

import Crypto
import Foundation
import LocalAuthentication
import Security

@inline(never) @usableFromInline func _cryptoKitStub() -> Never { fatalError("Apple API stub: type-checking only") }

public enum SecureEnclave {
    /// Whether the device has a Secure Enclave.
    public static var isAvailable: Bool { _cryptoKitStub() }

    public enum P256 {
        public enum Signing {
            public struct PrivateKey {
                /// A new key in the Secure Enclave.
                public init(
                    compactRepresentable: Bool = true, accessControl: SecAccessControl,
                    authenticationContext: LAContext? = nil
                ) throws {
                    _cryptoKitStub()
                }

                /// The key whose handle is `dataRepresentation`.
                public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
                    _cryptoKitStub()
                }

                public var publicKey: Crypto.P256.Signing.PublicKey { _cryptoKitStub() }
                /// The key's handle: usable only by this device's Secure Enclave.
                public var dataRepresentation: Data { _cryptoKitStub() }

                public func signature<D: DataProtocol>(for data: D) throws -> Crypto.P256.Signing.ECDSASignature {
                    _cryptoKitStub()
                }
            }
        }
    }
}
