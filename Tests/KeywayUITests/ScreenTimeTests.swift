import Foundation
import KeywayUI
@testable import KeywayPresentation
import KeywayProtocol
import Testing

/// What a screen redrawn every second shows of its countdowns: the resend button's seconds left
/// and when it comes back, and the sentences of the others.
@Suite("Countdowns on screens")
struct ScreenTimeTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theResendButtonCountsDownThenComesBack() {
        let resend = ScreenAction(
            id: "resend", label: "Send a new code", role: .secondary, actionName: "resend", availableAt: now.addingTimeInterval(11.2))
        #expect(!resend.isAvailable(at: now))
        #expect(resend.label(at: now) == "Send a new code (12 s)")
        #expect(resend.label(at: now.addingTimeInterval(11)) == "Send a new code (1 s)")
        #expect(resend.isAvailable(at: now.addingTimeInterval(11.2)))
        #expect(resend.label(at: now.addingTimeInterval(12)) == "Send a new code")
        let always = ScreenAction(id: "cancel", label: "Cancel", role: .cancel, actionName: nil)
        #expect(always.isAvailable(at: now) && always.label(at: now) == "Cancel")
    }

    @Test func countdownsSaySecondsThenMinutes() {
        let expiry = Countdown(.codeExpires, now.addingTimeInterval(581))
        #expect(expiry.secondsLeft(at: now) == 581)
        #expect(expiry.sentence(at: now) == "The code expires in 9:41.")
        #expect(expiry.sentence(at: now.addingTimeInterval(575)) == "The code expires in 6 s.")
        #expect(expiry.sentence(at: now.addingTimeInterval(600)) == "The code has expired. Ask for a new one.")
        let resend = Countdown(.resendAvailable, now.addingTimeInterval(30))
        #expect(resend.sentence(at: now) == "You can ask for a new code in 30 s.")
        #expect(resend.sentence(at: now.addingTimeInterval(30)) == nil)
        #expect(Countdown(.approvalExpires, now.addingTimeInterval(60)).sentence(at: now) == "The request expires in 1:00.")
    }
}
