/// Comparisons whose running time does not depend on where two secrets differ.
public enum ConstantTime {
    /// Whether two byte strings are equal, in time that depends only on their lengths.
    ///
    /// - Parameters:
    ///   - lhs: One byte string.
    ///   - rhs: The other.
    /// - Returns: `true` when both have the same length and the same bytes.
    public static func equals<A: Collection, B: Collection>(_ lhs: A, _ rhs: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        var difference = UInt8(truncatingIfNeeded: lhs.count ^ rhs.count)
        var right = rhs.makeIterator()
        for byte in lhs {
            difference |= byte ^ (right.next() ?? 0)
        }
        return difference == 0 && lhs.count == rhs.count
    }

    /// Whether two strings have the same UTF-8 bytes, in constant time for equal lengths.
    ///
    /// - Parameters:
    ///   - lhs: One string.
    ///   - rhs: The other.
    /// - Returns: `true` when their UTF-8 bytes are the same.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
