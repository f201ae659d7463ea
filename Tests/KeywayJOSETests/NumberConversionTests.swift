import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

/// Conversions of numbers that come from outside: none may trap, whatever the value.
@Suite("Numbers from outside")
struct NumberConversionTests {
    static let extremes: [Double] = [
        1e19, -1e19, 9.223372036854775807e18, -9.223372036854775808e18, .greatestFiniteMagnitude,
        -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan, -0.0, 2e53, 9_007_199_254_740_994,
    ]

    @Test func numberTextKeepsWholeNumbersAndNeverTraps() {
        #expect(NumberText.decimal(42) == "42")
        #expect(NumberText.decimal(-7) == "-7")
        #expect(NumberText.decimal(0.5) == "0.5")
        #expect(NumberText.decimal(9_007_199_254_740_992) == "9007199254740992")
        #expect(NumberText.decimal(1e19) == "1e+19")
        #expect(NumberText.decimal(-0.0) == "0")
        for value in Self.extremes { _ = NumberText.decimal(value) }
    }

    @Test func numericDatesAreWholeSecondsWithinTwoToTheFiftyThree() {
        #expect(JSONValue.number(1_700_000_000).numericDate == 1_700_000_000)
        #expect(JSONValue.number(1_700_000_000.9).numericDate == 1_700_000_000)
        #expect(JSONValue.number(-5).numericDate == -5)
        #expect(JSONValue.number(9_007_199_254_740_992).numericDate == 9_007_199_254_740_992)
        #expect(JSONValue.number(1e19).numericDate == nil)
        #expect(JSONValue.number(-1e300).numericDate == nil)
        #expect(JSONValue.number(.infinity).numericDate == nil)
        #expect(JSONValue.number(.nan).numericDate == nil)
        #expect(JSONValue.string("1700000000").numericDate == nil)
        for value in Self.extremes { _ = JSONValue.number(value).numericDate }
    }

    @Test func decodedExtremeNumbersBecomeJSONValuesOrErrorsNeverTraps() throws {
        for text in ["1e19", "-1e19", "1e308", "1e400", "-1e400", "1e-400", "123456789012345678901234567890"] {
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data("{\"exp\":\(text)}".utf8))
            if case .object(let claims)? = decoded { _ = claims["exp"]?.numericDate }
        }
    }
}
