import Foundation
import KeywayProtocol

extension ScreenAction {
    /// Whether the action can be used at `now`: its ``availableAt`` has passed, or it has none.
    ///
    /// - Parameter now: The moment asked about (a view's timeline date).
    /// - Returns: `true` when the action can be performed.
    public func isAvailable(at now: Date) -> Bool {
        availableAt.map { $0 <= now } ?? true
    }

    /// The action's label at `now`: while it is not available yet, with the seconds left
    /// (`Send a new code (12 s)`), so a screen redrawn every second counts down.
    ///
    /// - Parameter now: The moment the label is drawn.
    /// - Returns: The label to show.
    public func label(at now: Date) -> String {
        guard let availableAt, availableAt > now else { return label }
        return "\(label) (\(Countdown.spoken(seconds: Countdown.seconds(until: availableAt, from: now))))"
    }
}

extension Countdown {
    /// Whole seconds left at `now`, rounded up; `0` once the countdown ended.
    ///
    /// - Parameter now: The moment asked about.
    /// - Returns: The seconds left.
    public func secondsLeft(at now: Date) -> Int {
        Self.seconds(until: date, from: now)
    }

    /// The countdown as a sentence at `now` (`The code expires in 9:41.`), or `nil` when it has
    /// nothing to say any more (a new code can be asked for: the button says so).
    ///
    /// - Parameters:
    ///   - now: The moment the sentence is drawn.
    ///   - language: The sentence's language (a screen's ``Screen/language``).
    /// - Returns: The sentence, or `nil`.
    public func sentence(at now: Date, language: ScreenLanguage = .current) -> String? {
        let left = secondsLeft(at: now)
        let time = Self.spoken(seconds: left)
        switch purpose {
        case .resendAvailable: return left > 0 ? language("You can ask for a new code in %@.", time) : nil
        case .codeExpires:
            return left > 0
                ? language("The code expires in %@.", time) : language("The code has expired. Ask for a new one.")
        case .approvalExpires:
            return left > 0 ? language("The request expires in %@.", time) : language("The request has expired.")
        case .retryAvailable: return left > 0 ? language("Try again in %@.", time) : nil
        }
    }

    static func seconds(until date: Date, from now: Date) -> Int {
        max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    /// `12 s` under a minute, `9:41` from one minute on.
    static func spoken(seconds: Int) -> String {
        seconds < 60 ? "\(seconds) s" : "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"
    }
}
