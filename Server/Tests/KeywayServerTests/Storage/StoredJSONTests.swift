import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

/// Every JSON column is read by releases before and after the one that wrote it: only the members
/// without a meaningful default are required, and members a release does not know are ignored.
@Suite("Stored JSON: the columns read with defaults and ignore what they do not know")
struct StoredJSONTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func policiesNeedOnlyTheirPrimaryMethods() throws {
        let policy = try decode(ApplicationPolicy.self, #"{"primaryMethods":["emailOtp"],"webAuthn":{"rpId":"x"}}"#)
        #expect(policy == ApplicationPolicy(primaryMethods: [.emailOtp]))
        let nested = try decode(
            ApplicationPolicy.self,
            #"{"primaryMethods":["password"],"signup":{"later":1},"password":{},"devices":{"enabled":true},"delivery":{}}"#)
        #expect(nested.signup == SignupSettings())
        #expect(nested.password == PasswordSettings())
        #expect(nested.devices.enabled)
        #expect(throws: DecodingError.self) { try decode(ApplicationPolicy.self, #"{"mfaMode":"required"}"#) }
    }

    @Test func profileSchemasNeedOnlyANameAndAType() throws {
        let fields = try decode([ProfileFieldDefinition].self, #"[{"name":"nickname","type":"string","searchable":true}]"#)
        #expect(fields == [ProfileFieldDefinition(name: "nickname", type: .string)])
        #expect(throws: DecodingError.self) { try decode([ProfileFieldDefinition].self, #"[{"name":"nickname"}]"#) }
    }

    @Test func keySetsReadTheMembersTheyKnow() throws {
        let set = try decode(JSONWebKeySet.self, #"{"keys":[{"kty":"EC","crv":"P-256","x":"a","y":"b","ext":true}],"later":1}"#)
        #expect(set.keys.map(\.kty) == ["EC"])
    }

    @Test func flowProgressWrittenNowReadsBackAndItsVersionIsWritten() throws {
        let progress = FlowProgress(mode: .manage(FlowProgress.Management(grantedScope: "openid")), stage: .manageAccount)
        let text = String(decoding: try JSONEncoder().encode(progress), as: UTF8.self)
        #expect(text.contains(#""version":\#(FlowProgress.formatVersion)"#))
        #expect(try decode(FlowProgress.self, text) == progress)
    }
}
