@testable import Keyway

extension URLSessionTransport {
    /// The transport of the end-to-end tests' SDK clients: hundreds of tests and their servers
    /// share two cores, so an answer may take far longer than an app would wait for; two minutes
    /// of silence, not thirty seconds, make a request fail here.
    static var patient: URLSessionTransport { URLSessionTransport(timeout: 120) }
}
