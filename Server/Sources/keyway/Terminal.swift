import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal I/O: prompts and progress on standard error, results on standard output.
struct Terminal {
    /// Whether standard input is an interactive terminal.
    let interactive = isatty(STDIN_FILENO) != 0
    /// Where status lines and questions go: standard error (a test reads them instead).
    var standardError: @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }

    /// Writes a line to standard error.
    func status(_ text: String) {
        standardError(text + "\n")
    }

    /// Writes a line to standard output.
    func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Shows `question` and reads one trimmed line; `nil` at end of input.
    func ask(_ question: String) -> String? {
        standardError(question)
        // A line already being read (while the flow was waited for) answers this question.
        guard let line = BackgroundLine.take()?.wait() ?? readLine(strippingNewline: true) else {
            if !interactive { status("") }
            return nil
        }
        if !interactive { status("") }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Shows `question` and reads one line without echoing it when standard input is a terminal
    /// (termios); from a pipe it reads a plain line, so scripts can type. The line is not
    /// trimmed; `nil` at end of input.
    func askSecret(_ question: String) -> String? {
        standardError(question)
        if let pending = BackgroundLine.take() {
            let line = pending.wait()
            status("")
            return line
        }
        guard interactive else {
            let line = readLine(strippingNewline: true)
            status("")
            return line
        }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return readLine(strippingNewline: true) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            status("")
        }
        return readLine(strippingNewline: true)
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss zzz"
        return formatter.string(from: date)
    }
}
