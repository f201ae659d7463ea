/// The request line of an HTTP/1.x request (the headers are read, not used), or why it cannot be
/// read.
struct LoopbackHTTPRequest: Sendable, Equatable {
    /// The method (`GET`).
    var method: String
    /// The request target in origin form: the path and query (`/callback?code=…`).
    var target: String

    /// The path of the target, without its query.
    var path: Substring { target.prefix { $0 != "?" } }

    /// The most bytes of a request head the listener reads.
    static let maximumHeadLength = 16_384

    /// The request of a complete head (up to the blank line); `nil` when `head` is not one.
    init?(head: [UInt8]) {
        guard let end = head.firstIndex(of: UInt8(ascii: "\r")) ?? head.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: head[..<end], as: UTF8.self)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/"),
            parts[1].utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        method = String(parts[0])
        target = String(parts[1])
    }

    /// Whether `buffer` holds a whole head (it ends with an empty line).
    static func isComplete(_ buffer: [UInt8]) -> Bool {
        let crlf: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4 else { return false }
        for index in 0...(buffer.count - 4) where Array(buffer[index..<(index + 4)]) == crlf { return true }
        return false
    }
}
