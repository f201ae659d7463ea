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
}
