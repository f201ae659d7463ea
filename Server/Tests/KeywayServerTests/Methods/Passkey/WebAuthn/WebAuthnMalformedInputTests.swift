import Foundation
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing

@testable import KeywayServer

@Suite("WebAuthn malformed input")
struct WebAuthnMalformedInputTests {
    let now = Date()

    /// A registration response carrying `attestationObject` as its attestation object.
    func registration(_ attestationObject: Data, clientData: Data? = nil) throws -> PasskeyRegistrationResponse {
        let valid = try SoftwareAuthenticator(.es256).register()
        var response = valid
        response.response.attestationObject = Base64URL.encode(attestationObject)
        if let clientData { response.response.clientDataJSON = Base64URL.encode(clientData) }
        return response
    }

    /// An attestation object of format none around `authData`.
    func object(authData: Data) -> Data {
        CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]).encoded
    }

    @Test("Malformed attestation objects are refused as malformed")
    func attestationObjects() async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let valid = Base64URL.decode(try authenticator.register().response.attestationObject)!
        let authData = authenticator.authenticatorData(.init(), attested: true)
        let header = Data(authData.prefix(32))
        let counter = Data(authData[33..<37])
        let attested = Data(authData[37...])
        let fmt = Data([0x63]) + Data("fmt".utf8)
        let none = Data([0x64]) + Data("none".utf8)
        let repeatedKey: Data = Data([0xA2]) + fmt + none + fmt + none
        let hugeBytes: Data = Data([0xA1]) + fmt + Data([0x5B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let longID: Data = Data(authData.prefix(53)) + Data([0x04, 0x00]) + Data(repeating: 1, count: 1024) + authenticator.coseKey
        let emptyID: Data = Data(authData.prefix(53)) + Data([0x00, 0x00]) + authenticator.coseKey
        let notCBORKey: Data = Data(authData.prefix(55 + 16)) + Data([0x5F])
        let edEmpty: Data = header + Data([0xC5]) + counter + attested
        let edNotMap: Data = edEmpty + Data([0x01])
        let noAT: Data = header + Data([0x05]) + counter
        let fmtBytes = CBOR.map([(.text("fmt"), .bytes(Data("none".utf8))), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))]).encoded
        let authDataText = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .text("data"))]).encoded
        let statementArray = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .array([])), (.text("authData"), .bytes(authData))]).encoded
        let noAuthData = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([]))]).encoded
        var cases: [(String, Data)] = [
            ("empty", Data()),
            ("truncated by one byte", valid.dropLast()),
            ("truncated in half", valid.prefix(valid.count / 2)),
            ("trailing bytes", valid + Data([0x00])),
            ("nested too deep", Data(repeating: 0x81, count: 100) + Data([0x00])),
            ("a huge array length", Data([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])),
            ("a huge byte-string length", hugeBytes),
            ("an indefinite-length map", Data([0xBF, 0xFF])),
            ("a float", Data([0xFA, 0x47, 0xC3, 0x50, 0x00])),
            ("over 64 KiB", CBOR.bytes(Data(repeating: 0, count: 70_000)).encoded),
            ("not a map", CBOR.array([.text("none")]).encoded),
            ("fmt as bytes", fmtBytes),
            ("authData as text", authDataText),
            ("attStmt as array", statementArray),
            ("no authData", noAuthData),
            ("a repeated key", repeatedKey),
        ]
        cases += [
            ("authData trailing bytes", object(authData: authData + Data([0x00]))),
            ("authData shorter than 37 bytes", object(authData: authData.prefix(36))),
            ("authData cut in the attested credential", object(authData: authData.prefix(45))),
            ("authData cut in the credential ID", object(authData: authData.prefix(60))),
            ("authData without AT", object(authData: noAT)),
            ("authData with ED and no extensions", object(authData: edEmpty)),
            ("authData with ED and extensions that are not a map", object(authData: edNotMap)),
            ("authData with an empty credential ID", object(authData: emptyID)),
            ("authData with a 1024-byte credential ID", object(authData: longID)),
            ("authData with a key that is not CBOR", object(authData: notCBORKey)),
        ]
        for (name, bytes) in cases {
            let response = try registration(bytes)
            await WebAuthnFixture.expectMalformed("\(name)") {
                _ = try await WebAuthnFixture.verifier().verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
            }
        }
    }

    @Test("Extensions after the credential key are read; a credential ID of 1023 bytes is accepted")
    func extensionsAndLongID() async throws {
        let authenticator = try SoftwareAuthenticator(.es256, credentialID: Data(repeating: 0xAB, count: 1023))
        var authData = authenticator.authenticatorData(.init(), attested: true)
        authData[32] |= 0x80
        authData += CBOR.map([(.text("credProtect"), .unsigned(2))]).encoded
        let parsed = try WebAuthnAuthenticatorData(authData)
        #expect(parsed.extensions?["credProtect"] == .unsigned(2))
        #expect(parsed.attestedCredential?.credentialID.count == 1023)
        #expect(parsed.attestedCredential?.publicKey == authenticator.coseKey)
        var response = try registration(object(authData: authData))
        response.id = Base64URL.encode(authenticator.credentialID)
        response.rawID = response.id
        let verified = try await WebAuthnFixture.verifier().verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
        #expect(verified.credentialID.count == 1023)
    }

    @Test("Malformed client data and base64url are refused as malformed")
    func clientData() async throws {
        let valid = try SoftwareAuthenticator(.es256).register()
        let object = Base64URL.decode(valid.response.attestationObject)!
        let cases: [(String, Data)] = [
            ("not JSON", Data("webauthn.create".utf8)),
            ("an array", Data("[]".utf8)),
            ("no challenge", Data(#"{"type":"webauthn.create","origin":"https://login.example.com"}"#.utf8)),
            ("challenge not base64url", Data(#"{"type":"webauthn.create","challenge":"a+b/","origin":"https://login.example.com"}"#.utf8)),
            ("crossOrigin not a boolean", Data(#"{"type":"webauthn.create","challenge":"dGhl","origin":"https://login.example.com","crossOrigin":"false"}"#.utf8)),
            ("type not a string", Data(#"{"type":1,"challenge":"dGhl","origin":"https://login.example.com"}"#.utf8)),
            ("over 16 KiB", Data(#"{"type":"webauthn.create","challenge":"dGhl","origin":"https://login.example.com","pad":""#.utf8) + Data(repeating: 0x61, count: 17_000) + Data(#""}"#.utf8)),
        ]
        for (name, json) in cases {
            let response = try registration(object, clientData: json)
            await WebAuthnFixture.expectMalformed("\(name)") {
                _ = try await WebAuthnFixture.verifier().verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
            }
        }
        var badBase64 = valid
        badBase64.response.clientDataJSON = "not base64url!"
        await WebAuthnFixture.expectMalformed("clientDataJSON not base64url") {
            _ = try await WebAuthnFixture.verifier().verifyRegistration(badBase64, challenge: WebAuthnFixture.challenge, now: now)
        }
        var badID = valid
        badID.id = "***"
        await WebAuthnFixture.expectMalformed("id not base64url") {
            _ = try await WebAuthnFixture.verifier().verifyRegistration(badID, challenge: WebAuthnFixture.challenge, now: now)
        }
        var badType = valid
        badType.type = "password"
        await WebAuthnFixture.expectMalformed("type not public-key") {
            _ = try await WebAuthnFixture.verifier().verifyRegistration(badType, challenge: WebAuthnFixture.challenge, now: now)
        }
    }

    @Test("Malformed assertion parts are refused as malformed")
    func assertionParts() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let valid = try authenticator.assert()
        let authData = Base64URL.decode(valid.response.authenticatorData)!
        var cases: [(String, PasskeyAssertionResponse)] = []
        for (name, bytes) in [
            ("authenticator data of 36 bytes", authData.prefix(36)), ("authenticator data with trailing bytes", authData + Data([0])),
            ("AT set with nothing after", authData.prefix(32) + Data([authData[32] | 0x40]) + authData.suffix(4)),
        ] {
            var response = valid
            response.response.authenticatorData = Base64URL.encode(bytes)
            cases.append((name, response))
        }
        var signature = valid
        signature.response.signature = "%%"
        cases.append(("signature not base64url", signature))
        var handle = valid
        handle.response.userHandle = "%%"
        cases.append(("user handle not base64url", handle))
        for (name, response) in cases {
            do {
                _ = try WebAuthnFixture.verifier().verifyAssertion(
                    response, challenge: WebAuthnFixture.challenge, credential: authenticator.stored())
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.code == "passkey_malformed", "\(name): \(error)")
            }
        }
        var storedBroken = authenticator.stored()
        storedBroken.publicKey = Data([0xA0])
        #expect(throws: WebAuthnFailure.self) {
            _ = try WebAuthnFixture.verifier().verifyAssertion(valid, challenge: WebAuthnFixture.challenge, credential: storedBroken)
        }
    }

    @Test("Every prefix and every single-byte change of valid authenticator data parses or throws, never traps")
    func mutations() throws {
        for algorithm in COSEAlgorithm.allCases {
            let authenticator = try SoftwareAuthenticator(algorithm)
            var authData = authenticator.authenticatorData(.init(), attested: true)
            authData[32] |= 0x80
            authData += CBOR.map([(.text("credProtect"), .unsigned(2))]).encoded
            for length in 0..<authData.count {
                #expect(throws: WebAuthnFailure.self) { _ = try WebAuthnAuthenticatorData(authData.prefix(length)) }
            }
            for index in authData.indices {
                for flip: UInt8 in [0x01, 0x20, 0x80, 0xFF] {
                    var mutated = authData
                    mutated[index] ^= flip
                    if let parsed = try? WebAuthnAuthenticatorData(mutated), let key = parsed.attestedCredential?.publicKey {
                        _ = try? COSEPublicKey(cbor: key)
                    }
                }
            }
        }
    }

    @Test("CBOR: decodePrefix says how many bytes the first item took; inputs over 64 KiB are refused")
    func cborPrefix() throws {
        let first = CBOR.map([(.unsigned(1), .unsigned(2)), (.int(-2), .bytes(Data(repeating: 3, count: 40)))]).encoded
        let (item, length) = try CBOR.decodePrefix(first + Data([0x01, 0x02]))
        #expect(length == first.count)
        #expect(item[-2]?.bytesValue?.count == 40)
        #expect(item[1]?.intValue == 2)
        #expect(throws: CBOR.DecodingError(reason: "trailing bytes after the item")) { try CBOR.decode(first + Data([0x01])) }
        #expect(throws: CBOR.DecodingError.self) { try CBOR.decodePrefix(Data()) }
        let big = CBOR.bytes(Data(repeating: 0, count: CBOR.maximumInputSize)).encoded
        #expect(throws: CBOR.DecodingError(reason: "the input is larger than 65536 bytes")) { try CBOR.decode(big) }
        let largest = CBOR.bytes(Data(repeating: 0, count: CBOR.maximumInputSize - 3)).encoded
        #expect(largest.count == CBOR.maximumInputSize)
        #expect(try CBOR.decode(largest).bytesValue?.count == CBOR.maximumInputSize - 3)
    }

    @Test("CBOR: a map of thousands of keys decodes in linear time; a repeated key far in is found")
    func cborLargeMap() throws {
        let pairs = (0..<10_000).map { (CBOR.unsigned(UInt64($0)), CBOR.unsigned(0)) }
        let decoded = try CBOR.decode(CBOR.map(pairs).encoded)
        #expect(decoded.mapValue?.count == 10_000)
        let repeated = CBOR.map(pairs + [(.unsigned(9_999), .unsigned(1))]).encoded
        #expect(throws: CBOR.DecodingError(reason: "a map repeats a key")) { try CBOR.decode(repeated) }
        #expect(CBOR.negative(6).intValue == -7 && CBOR.unsigned(UInt64.max).intValue == nil && CBOR.negative(UInt64.max).intValue == nil)
    }
}
