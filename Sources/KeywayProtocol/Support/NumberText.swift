/// How a JSON number is written where the protocol keeps it as text (a form answer, a profile
/// value shown to the app).
public enum NumberText {
    /// The largest magnitude below which every whole `Double` is an exact integer (2^53).
    public static let exactIntegerLimit: Double = 9_007_199_254_740_992

    /// `number` as decimal text: a whole number within ±2^53 without a fraction ("42", not
    /// "42.0"); anything else as Swift prints a `Double` ("0.5", "1e+19"). Never traps, whatever
    /// the number's size.
    ///
    /// - Parameter number: The number to write.
    /// - Returns: Its decimal text.
    public static func decimal(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) <= exactIntegerLimit {
            return String(Int64(number))
        }
        return String(number)
    }
}
