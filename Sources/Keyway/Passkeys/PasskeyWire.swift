import Foundation
import KeywayJOSE
import KeywayProtocol

/// What an authenticator needs of the options as bytes, and its raw outputs as the WebAuthn
/// JSON: base64url both ways. Shared by every authenticator (the platform one is a thin layer on
/// it), so that the Linux build compiles and tests it.
package enum PasskeyWire {
    /// A user-verification preference, as options name it.
    package enum UserVerification: String, Sendable, Equatable {
        case required, preferred, discouraged

        /// The preference named `text`; an unknown or missing one is `preferred`, WebAuthn's default.
        package init(_ text: String?) {
            self = text.flatMap(UserVerification.init(rawValue:)) ?? .preferred
        }
    }

    /// The bytes of a base64url member of the options.
    ///
    /// - Parameters:
    ///   - text: The member's value.
    ///   - name: What it is, for the error.
    /// - Returns: Its bytes.
    /// - Throws: ``PasskeyError/invalidOptions(_:)`` when it is empty or not base64url.
    package static func bytes(_ text: String, _ name: String) throws(PasskeyError) -> Data {
        guard !text.isEmpty, let bytes = Base64URL.decode(text) else {
            throw .invalidOptions("The \(name) is not base64url.")
        }
        return bytes
    }

    /// The challenge of creation options.
    package static func challenge(_ options: PublicKeyCredentialCreationOptions) throws(PasskeyError) -> Data {
        try bytes(options.challenge, "challenge")
    }

    /// The challenge of request options.
    package static func challenge(_ options: PublicKeyCredentialRequestOptions) throws(PasskeyError) -> Data {
        try bytes(options.challenge, "challenge")
    }

    /// The user handle of creation options (1 to 64 bytes).
    package static func userID(_ options: PublicKeyCredentialCreationOptions) throws(PasskeyError) -> Data {
        let id = try bytes(options.user.id, "user handle")
        guard id.count <= 64 else { throw .invalidOptions("The user handle is longer than 64 bytes.") }
        return id
    }

    /// The credential IDs of descriptors (`allowCredentials`, `excludeCredentials`), in order.
    package static func credentialIDs(_ descriptors: [PublicKeyCredentialDescriptor]) throws(PasskeyError) -> [Data] {
        var ids: [Data] = []
        for descriptor in descriptors where descriptor.type == "public-key" {
            ids.append(try bytes(descriptor.id, "credential ID"))
        }
        return ids
    }

    /// A new credential's raw outputs as `RegistrationResponseJSON`.
    ///
    /// - Parameters:
    ///   - credentialID: The credential ID.
    ///   - clientDataJSON: The client data's JSON.
    ///   - attestationObject: The attestation object (CBOR).
    ///   - attachment: `platform` or `cross-platform`, when known.
    ///   - transports: Transports the authenticator can be reached by.
    /// - Returns: The response.
    package static func registration(
        credentialID: Data, clientDataJSON: Data, attestationObject: Data, attachment: String?, transports: [String]?
    ) -> PasskeyRegistrationResponse {
        var response = PasskeyRegistrationResponse(
            id: Base64URL.encode(credentialID),
            response: .init(
                clientDataJSON: Base64URL.encode(clientDataJSON), attestationObject: Base64URL.encode(attestationObject),
                transports: transports),
            authenticatorAttachment: attachment)
        // A passkey is a discoverable credential.
        response.clientExtensionResults = PasskeyExtensionResults(credProps: .init(rk: true))
        return response
    }

    /// A signature's raw outputs as `AuthenticationResponseJSON`.
    ///
    /// - Parameters:
    ///   - credentialID: The credential ID.
    ///   - clientDataJSON: The client data's JSON.
    ///   - authenticatorData: The authenticator data.
    ///   - signature: The signature (DER for ES256, raw for EdDSA).
    ///   - userHandle: The user handle the passkey was made for, when the authenticator gives it
    ///     (an empty one counts as none).
    ///   - attachment: `platform` or `cross-platform`, when known.
    /// - Returns: The response.
    package static func assertion(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?,
        attachment: String?
    ) -> PasskeyAssertionResponse {
        PasskeyAssertionResponse(
            id: Base64URL.encode(credentialID),
            response: .init(
                clientDataJSON: Base64URL.encode(clientDataJSON), authenticatorData: Base64URL.encode(authenticatorData),
                signature: Base64URL.encode(signature),
                userHandle: userHandle.flatMap { $0.isEmpty ? nil : Base64URL.encode($0) }),
            authenticatorAttachment: attachment)
    }
}
