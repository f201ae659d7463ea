import Foundation
import KeywayProtocol
import KeywayServer

/// A trusted issuer described in a JSON file (`--trust-issuer`).
struct TrustedIssuerFile: Decodable {
    var issuer: String
    var audience: String
    var jwks: JSONWebKeySet?
    var jwksURL: String?
    var linkByVerifiedEmail: Bool?
    var createUsers: Bool?

    static func load(_ path: String) throws -> TrustedIssuer {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError("The trusted issuer file \(path) cannot be read.")
        }
        let invalid = ConfigurationError(
            "The trusted issuer file \(path) is not valid: it needs issuer, audience, and either jwks (a JSON Web Key Set) or jwksURL.")
        guard let file = try? JSONDecoder().decode(TrustedIssuerFile.self, from: data) else { throw invalid }
        let source: TrustedIssuer.KeySource
        switch (file.jwks, file.jwksURL.flatMap(URL.init(string:))) {
        case (let keys?, nil): source = .keys(keys)
        case (nil, let url?): source = .url(url)
        default: throw invalid
        }
        return TrustedIssuer(
            issuer: file.issuer, audience: file.audience, keySource: source,
            linkByVerifiedEmail: file.linkByVerifiedEmail ?? true, createUsers: file.createUsers ?? true)
    }
}
