import Foundation

/// The JSON coders every Keyway party uses on the wire: ISO 8601 dates with fractional seconds
/// (always UTC), sorted keys for stable output.
public enum WireCoding {
    /// A new encoder configured for the Keyway wire format.
    ///
    /// - Returns: An encoder with sorted keys, unescaped slashes and dates as
    ///   ``formatTimestamp(_:)`` writes them.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        return encoder
    }

    /// A new decoder configured for the Keyway wire format.
    ///
    /// Dates must be RFC 3339 timestamps ``parseTimestamp(_:)`` reads; any other date text fails
    /// decoding with `DecodingError.dataCorrupted`.
    ///
    /// - Returns: A decoder for the Keyway wire format.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an RFC 3339 timestamp, got \(text.debugDescription).")
            }
            return date
        }
        return decoder
    }

    /// Formats a date as RFC 3339 with millisecond precision in UTC, e.g. `2026-11-22T07:33:09.120Z`.
    ///
    /// - Parameter date: The date to format; its fraction below a millisecond is dropped.
    /// - Returns: The timestamp text.
    public static func formatTimestamp(_ date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = millis - seconds * 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        return String(
            format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
            year, month, day, secondOfDay / 3600, (secondOfDay % 3600) / 60, secondOfDay % 60, fraction)
    }

    /// Parses an RFC 3339 timestamp with or without fractional seconds, `Z` or a numeric offset.
    ///
    /// - Parameter text: The timestamp text (`2026-11-22T07:33:09.120Z`, `2026-11-22T08:33:09+01:00`).
    /// - Returns: The date, or `nil` when `text` is not such a timestamp.
    /// The days of `month` (1–12) in `year` of the Gregorian calendar: `2026-02-31` is no date.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func parseTimestamp(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        func number(_ start: Int, _ length: Int) -> Int64? {
            guard start + length <= utf8.count else { return nil }
            var value: Int64 = 0
            for byte in utf8[start..<(start + length)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard utf8.count >= 20,
            let year = number(0, 4), utf8[4] == 45, let month = number(5, 2), utf8[7] == 45,
            let day = number(8, 2), utf8[10] == 84 || utf8[10] == 116,
            let hour = number(11, 2), utf8[13] == 58, let minute = number(14, 2), utf8[16] == 58,
            let second = number(17, 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if utf8[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < utf8.count, utf8[index] >= 48, utf8[index] <= 57 {
                fraction += Double(utf8[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < utf8.count else { return nil }
        var offset: Int64 = 0
        if utf8[index] == 90 || utf8[index] == 122 {
            index += 1
        } else if utf8[index] == 43 || utf8[index] == 45 {
            let sign: Int64 = utf8[index] == 43 ? 1 : -1
            guard let offsetHours = number(index + 1, 2), index + 3 < utf8.count, utf8[index + 3] == 58,
                let offsetMinutes = number(index + 4, 2)
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
            index += 6
        } else {
            return nil
        }
        guard index == utf8.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // Howard Hinnant's civil-calendar algorithms: exact, branch-light, no Calendar needed.
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
