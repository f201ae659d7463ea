import Foundation

// The wire types every role shares (the error body, the envelopes, each endpoint's request and
// answer) are KeywayPowerAuthWire's; these are the server's own.

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

/// `POST /pa/v3/keystore/create`'s request object.
struct KeystoreCreateRequest: Codable, Sendable {
    var jwt: String?
}

/// `POST /pa/v3/keystore/create`'s answer (the JWT in `responseObject`, and in `requestObject`
/// as the published example writes it).
struct KeystoreCreateResponse: Codable, Sendable {
    struct Object: Codable, Sendable {
        var jwt: String
    }

    var status = "OK"
    var responseObject: Object
    var requestObject: Object
}
