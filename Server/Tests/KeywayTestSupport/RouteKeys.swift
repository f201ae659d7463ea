/// The route table names a route `METHOD /path/{parameter}`; a test calls it with every path
/// parameter filled in.
public enum RouteKeys {
    /// The method and a concrete path of the route `key` (`DELETE /v1/me/devices/{deviceId}` →
    /// `DELETE`, `/v1/me/devices/x1`; a trailing `**` becomes one segment).
    public static func request(for key: String) -> (method: String, path: String) {
        let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
        let segments = parts[1].split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") || segment.hasPrefix(":") || segment == "**" ? "x1" : String(segment)
        }
        return (parts[0], segments.joined(separator: "/"))
    }
}
