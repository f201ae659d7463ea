import Testing

@testable import KeywayServer

@Suite("Client descriptions: a browser and its system, or an app's name, from a User-Agent")
struct ClientDescriptionTests {
    @Test(arguments: [
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36",
            "Chrome on Linux"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Safari on iPhone"
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0",
            "Edge on Windows"
        ),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox on macOS"),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
            "Chrome on Android"
        ),
        ("keyway/1.0 (Linux)", "keyway"),
        ("Notes/3.2 CFNetwork/1490.0.4 Darwin/23.2.0", "Notes"),
    ])
    func describes(agent: String, expected: String) {
        #expect(ClientDescription.coarse(agent) == expected)
    }

    @Test func nothingRecognisableIsNil() {
        #expect(ClientDescription.coarse(nil) == nil)
        #expect(ClientDescription.coarse("") == nil)
        #expect(ClientDescription.coarse("<script>/1") == "script")
    }
}
