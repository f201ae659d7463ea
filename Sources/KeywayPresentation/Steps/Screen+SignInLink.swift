import Foundation
import KeywayProtocol

extension Screen {
    /// What a code step whose message also carried a sign-in link (`linkSent`) adds: it says a
    /// link and a code were sent, keeps the code input, and waits (``isWaiting``) — the link may
    /// be approved on another device, which the SDK polls for, and the screen model then shows
    /// where the flow went (`KeywayScreenModel.waitForFlow()`). A link opened in the app goes to
    /// `KeywayScreenModel.openLink(_:)`.
    mutating func addLinkSent(destination: String, channel: CodeChannel) {
        instruction = language("Open the link, or enter the code")
        isWaiting = true
        guard !messages.contains(where: { $0.code == "linkSent" }) else { return }
        let text =
            channel == .sms
            ? language(
                "We texted a sign-in link and a code to %@. Open the link on this or another device, or enter the code.",
                destination)
            : language(
                "We emailed a sign-in link and a code to %@. Open the link on this or another device, or enter the code.",
                destination)
        messages.append(ScreenMessage(level: .info, code: "linkSent", text: text))
    }
}
