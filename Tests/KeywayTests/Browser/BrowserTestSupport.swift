import Foundation
import Keyway
import KeywayProtocol

/// A browser that answers with a callback its closure makes from the authorize URL.
struct FakeBrowser: BrowserSession {
    let answer: @Sendable (URL, URL) throws -> URL

    func authorize(url: URL, callbackURL: URL) async throws -> URL {
        try answer(url, callbackURL)
    }
}
