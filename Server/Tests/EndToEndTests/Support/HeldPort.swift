#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback TCP port bound without listening: a connection to it is refused at once, and no
/// server of a test running beside this one can take it while it is held. For "the server is
/// down" after stopping one: its port, once free, is anyone's.
final class HeldPort: Sendable {
    private let descriptor: Int32
    let port: Int

    /// Binds 127.0.0.1:`port` (a port a stopped server just gave back).
    init(_ port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("No socket to hold port \(port).") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(descriptor)
            throw TestFailure("Port \(port) was taken by another server before it could be held.")
        }
        self.descriptor = descriptor
        self.port = port
    }

    /// Gives the port back.
    func release() {
        close(descriptor)
    }
}
