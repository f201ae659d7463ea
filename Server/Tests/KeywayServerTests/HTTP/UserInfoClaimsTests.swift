import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

/// UserInfo gives the claims of each scope the token was granted, as the ID token does.
@Suite("UserInfo claims by scope")
struct UserInfoClaimsTests {
    static let user = UserRecord(
        id: "usr_1", projectId: "prj_1", email: "ann@example.com", emailVerified: true, createdAt: 0,
        phone: "+14155550123", phoneVerified: true)

    @Test func eachScopeGivesItsClaims() {
        let bare = UserRoutes.userInfo(Self.user, scopes: ["openid"])
        #expect(bare == UserInfo(subject: "usr_1", email: nil, emailVerified: nil, isAnonymous: false))
        let email = UserRoutes.userInfo(Self.user, scopes: ["openid", "email"])
        #expect(email.email == "ann@example.com" && email.emailVerified == true && email.phoneNumber == nil)
        let phone = UserRoutes.userInfo(Self.user, scopes: ["openid", "phone"])
        #expect(phone.phoneNumber == "+14155550123" && phone.phoneNumberVerified == true && phone.email == nil)
    }

    @Test func anUnverifiedPhoneNumberIsNotAClaim() {
        var user = Self.user
        user.phoneVerified = false
        let info = UserRoutes.userInfo(user, scopes: ["openid", "phone"])
        #expect(info.phoneNumber == nil && info.phoneNumberVerified == nil)
    }

    /// An account known only by its phone number gets the phone claims with `email`, at UserInfo
    /// as in its ID token: one rule chooses both (``ReleasedClaims``).
    @Test func aPhoneOnlyAccountGetsItsNumberWithTheEmailScopeAsInTheIDToken() {
        let phoneOnly = UserRecord(
            id: "usr_2", projectId: "prj_1", email: nil, emailVerified: false, createdAt: 0, phone: "+14155550199",
            phoneVerified: true)
        let info = UserRoutes.userInfo(phoneOnly, scopes: ["openid", "email"])
        #expect(info.phoneNumber == "+14155550199" && info.phoneNumberVerified == true)
        #expect(info.email == nil && info.emailVerified == nil)
        let released = ReleasedClaims(scopes: ["openid", "email"], email: nil, emailVerified: false, verifiedPhone: "+14155550199")
        #expect(released.phoneNumber == info.phoneNumber && released.email == nil)
        // With an address too, `email` gives only the address.
        #expect(UserRoutes.userInfo(Self.user, scopes: ["openid", "email"]).phoneNumber == nil)
    }

    /// `profile` gives the standard claims the schema defines as plain strings, nothing else.
    @Test func theProfileScopeGivesStandardStringClaimsOfTheSchema() {
        let schema = [
            ProfileFieldDefinition(name: "given_name", type: .string),
            ProfileFieldDefinition(name: "birthdate", type: .string),
            ProfileFieldDefinition(name: "nickname", type: .string, encrypted: true),
            ProfileFieldDefinition(name: "locale", type: .number),
            ProfileFieldDefinition(name: "displayName", type: .string),
        ]
        let profile: [String: ProfileValue] = [
            "given_name": .string("Ann"), "nickname": .string("eyJ.x.y.z.w"), "locale": .number(1),
            "displayName": .string("Ann B."), "family_name": .string("not in the schema"),
        ]
        let info = UserRoutes.userInfo(Self.user, scopes: ["openid", "profile"], profile: profile, schema: schema)
        #expect(info.profile == ["given_name": "Ann"])
        #expect(UserRoutes.userInfo(Self.user, scopes: ["openid"], profile: profile, schema: schema).profile.isEmpty)
    }

    /// The profile claims are members of their own in the answer, and read back by the SDK's type.
    @Test func profileClaimsRoundTripAsTopLevelMembers() throws {
        let info = UserInfo(
            subject: "usr_1", email: "ann@example.com", emailVerified: true, isAnonymous: false,
            profile: ["given_name": "Ann", "locale": "en-GB"])
        let data = try JSONEncoder().encode(info)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["given_name"] as? String == "Ann" && object["locale"] as? String == "en-GB")
        #expect(object["sub"] as? String == "usr_1" && object["phone_number"] == nil)
        #expect(try JSONDecoder().decode(UserInfo.self, from: data) == info)
        // A claim of another type, or an unknown member, is not kept.
        let other = Data(#"{"sub":"usr_1","given_name":7,"shoe_size":"9","locale":"fr"}"#.utf8)
        #expect(try JSONDecoder().decode(UserInfo.self, from: other).profile == ["locale": "fr"])
    }
}
