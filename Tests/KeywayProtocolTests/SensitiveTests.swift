import Foundation
import KeywayProtocol
import Testing

@Suite("Sensitive values never print")
struct SensitiveTests {
    let secret = Sensitive("483920")

    @Test func everyTextualFormIsMasked() {
        #expect(secret.description == Sensitive<String>.mask)
        #expect("\(secret)" == Sensitive<String>.mask)
        #expect(String(describing: secret) == Sensitive<String>.mask)
        #expect(!String(reflecting: secret).contains("483920"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("483920"))
    }

    @Test func containersDoNotLeakIt() {
        struct Holder { var code: Sensitive<String> }
        #expect(!"\(Holder(code: secret))".contains("483920"))
        #expect(!"\([secret])".contains("483920"))
        #expect(!"\(Optional(secret) as Any)".contains("483920"))
        let request = SubmitCodeRequest(code: secret)
        #expect(!"\(request)".contains("483920"))
    }

    @Test func encodesThePlainValueOnTheWire() throws {
        let data = try WireCoding.makeEncoder().encode(SubmitCodeRequest(code: secret))
        #expect(String(decoding: data, as: UTF8.self) == #"{"code":"483920"}"#)
        let decoded = try WireCoding.makeDecoder().decode(SubmitCodeRequest.self, from: data)
        #expect(decoded.code.revealed == "483920")
    }
}
