import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Guests: the policy's settings and the flow state of a guest")
struct GuestSettingsTests {
    func problems(_ guests: GuestSettings, flowTypes: [FlowType] = [.signin, .signup]) -> [String] {
        let policy = ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: flowTypes)
        var withGuests = policy
        withGuests.guests = guests
        do {
            try withGuests.validate(devMode: false)
            return []
        } catch {
            return error.problems.map(\.code)
        }
    }

    @Test func settingsDecodeWithDefaultsAndAreBounded() throws {
        let decoded = try JSONDecoder().decode(GuestSettings.self, from: Data(#"{"enabled":true}"#.utf8))
        #expect(decoded == GuestSettings(enabled: true, maxAge: 30 * 86_400, perAddressPerHour: 10))
        let policy = try JSONDecoder().decode(ApplicationPolicy.self, from: Data(#"{"primaryMethods":["emailOtp"]}"#.utf8))
        #expect(policy.guests.enabled == false)

        #expect(problems(GuestSettings(enabled: true)).isEmpty)
        #expect(problems(GuestSettings(enabled: true, maxAge: 3_599)) == ["invalid_guest_max_age"])
        #expect(problems(GuestSettings(enabled: true, maxAge: 3_600, perAddressPerHour: 1_000)).isEmpty)
        #expect(problems(GuestSettings(enabled: true, perAddressPerHour: 1_001)) == ["invalid_guest_rate"])
        #expect(problems(GuestSettings(enabled: true, perAddressPerHour: 0)) == ["invalid_guest_rate"])
        #expect(problems(GuestSettings(enabled: true), flowTypes: [.signin]) == ["guests_need_signup"])
        // Off, the application needs no sign-up for them.
        #expect(problems(GuestSettings(enabled: false), flowTypes: [.signin]).isEmpty)
    }

    @Test func aGuestsFlowStateRoundTripsAndOlderDocumentsHaveNone() throws {
        var progress = FlowProgress(mode: .signIn(FlowProgress.SignIn(startedAsSignUp: true)), stage: .accountExists)
        progress.guest = FlowProgress.GuestProgress(
            userId: "usr_guest", signsIn: nil, pendingProof: Proof(method: .emailOtp, role: .primary, amr: "otp", at: 7))
        let decoded = try JSONDecoder().decode(FlowProgress.self, from: JSONEncoder().encode(progress))
        #expect(decoded == progress)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(progress)) as! [String: Any]
        #expect((object["stage"] as? [String: Any])?["kind"] as? String == "accountExists")

        let older = try JSONDecoder().decode(
            FlowProgress.self, from: Data(#"{"version":1,"mode":"signUp","stage":{"kind":"form"}}"#.utf8))
        #expect(older.guest == nil)
    }
}
