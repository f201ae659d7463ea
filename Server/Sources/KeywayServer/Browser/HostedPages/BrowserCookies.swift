import Foundation
import HTTPTypes
import Hummingbird

/// The hosted pages' two cookies: the browser session (who is signed in) and the visit (the sign-in
/// in progress). Both `HttpOnly`, `SameSite=Lax`, `Path=/`, without `Domain`; over HTTPS they are
/// `Secure` and carry the `__Host-` prefix, which browsers only accept so. A dev server on plain
/// HTTP at a loopback address cannot set `Secure` cookies there, so its cookies go without the
/// prefix and `Secure`.
struct BrowserCookies: Sendable {
    /// Whether the issuer is served over HTTPS.
    let secure: Bool

    init(issuer: String) {
        secure = issuer.lowercased().hasPrefix("https://")
    }

    var sessionName: String { secure ? "__Host-keyway-session" : "keyway-session" }
    var flowName: String { secure ? "__Host-keyway-flow" : "keyway-flow" }

    /// The `Set-Cookie` value setting `name` to `value` for `maxAge` seconds.
    func set(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    /// The `Set-Cookie` value deleting `name`.
    func clear(_ name: String) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    /// The value of cookie `name` in the request, if it is well-formed (a token of the server's
    /// alphabet, at most 200 characters).
    static func value(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix(name + "=") else { continue }
                let value = String(trimmed.dropFirst(name.count + 1))
                guard !value.isEmpty, value.count <= 200,
                    value.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") })
                else { return nil }
                return value
            }
        }
        return nil
    }
}
