/// CRC-16/ARC (polynomial 0x8005 reflected, initial value 0, no final XOR), the checksum of
/// activation and recovery codes.
public enum CRC16 {
    /// Computes CRC-16/ARC over bytes.
    ///
    /// - Parameter bytes: The bytes to check.
    /// - Returns: The checksum; `"123456789"` gives `0xBB3D`.
    public static func arc<C: Sequence>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1
            }
        }
        return crc
    }
}
