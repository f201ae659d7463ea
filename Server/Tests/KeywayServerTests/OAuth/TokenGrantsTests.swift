import Foundation
import Testing

@testable import KeywayServer

/// The grants of the token endpoint: one registry that discovery, registration and the endpoint
/// read, so a grant type is answered by its own grant or refused.
@Suite("Token grants: one registry for discovery, registration and the token endpoint")
struct TokenGrantsTests {
    @Test func everyGrantIsListedOnceWithItsOwnMetric() {
        #expect(
            TokenGrants.grantTypes == [
                "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange",
            ])
        #expect(Set(TokenGrants.grantTypes).count == TokenGrants.all.count)
        #expect(Set(TokenGrants.all.map(\.metricName)) == ["authorization_code", "refresh_token", "token_exchange"])
        for grant in TokenGrants.all {
            #expect(TokenGrants.named(grant.grantType)?.grantType == grant.grantType)
        }
    }

    @Test(arguments: ["password", "client_credentials", "implicit", "urn:openid:params:grant-type:ciba", "", "REFRESH_TOKEN"])
    func aGrantTypeNotListedHasNoGrant(_ grantType: String) {
        #expect(TokenGrants.named(grantType) == nil)
    }

    @Test func registrationAcceptsTheListedGrantsAndRefusesOthers() throws {
        let body: (String) -> Data = { grants in
            Data(#"{"redirect_uris":["https://client.example.com/cb"],"grant_types":[\#(grants)]}"#.utf8)
        }
        let all = TokenGrants.grantTypes.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(try ClientMetadata(json: body(all)).grantTypes == TokenGrants.grantTypes)
        #expect(throws: OAuthFailure.self) { _ = try ClientMetadata(json: body(#""authorization_code","password""#)) }
    }
}
