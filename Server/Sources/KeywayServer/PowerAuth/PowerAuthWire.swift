import Foundation

// The wire types every role shares (the error body, the envelopes, each endpoint's request and
// answer) are KeywayPowerAuthWire's; this one only the server writes and no device reads.

/// `POST /pa/v3/status`'s response object, as the RESTful integration's `ServerStatusResponse`
/// has it: the server's time in milliseconds since 1970, which the mobile SDKs synchronise their
/// clock with, and the serving application.
struct PowerAuthServerStatus: Codable, Sendable {
    struct Application: Codable, Sendable {
        var name: String
        var version: String
    }

    var serverTime: Int64
    var application: Application
}
