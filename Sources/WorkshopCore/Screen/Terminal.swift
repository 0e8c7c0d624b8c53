import Foundation

/// Where the Screen draws: redrawn in place on a terminal, as plain lines in a pipe or a
/// log, or not at all (when stdout must carry only JSON).
public enum ScreenOutput: Sendable, Equatable {
    case terminal(color: Bool)
    case plain
    case silent

    /// `.terminal` when stdout is a TTY, `.plain` otherwise, `.silent` for `--json`.
    /// NO_COLOR (https://no-color.org) turns colour off.
    public static func automatic(json: Bool) -> ScreenOutput {
        if json { return .silent }
        guard isatty(STDOUT_FILENO) == 1, ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return .plain }
        return .terminal(color: ProcessInfo.processInfo.environment["NO_COLOR"]?.isEmpty ?? true)
    }
}

/// The width of the terminal stdout draws on, in cells: the terminal's own (asked with
/// TIOCGWINSZ), else `COLUMNS`, else nil (a pipe or a file: no width to fit).
public func terminalColumns() -> Int? {
    var size = winsize()
    if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
        return Int(size.ws_col)
    }
    return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "").flatMap { $0 > 0 ? $0 : nil }
}

/// Writes to stdout and flushes at once, so output interleaves correctly with timing.
public func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Writes a line to stderr.
public func warn(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

enum ANSI {
    static func up(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)A" : "" }
    static let clearToEnd = "\u{1B}[J"
    static func dim(_ s: String, _ on: Bool) -> String { on ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    static func bold(_ s: String, _ on: Bool) -> String { on ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
}

/// Width of a string in terminal cells: East Asian wide characters take two.
public func terminalWidth(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { width, scalar in
        let v = scalar.value
        let wide =
            (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
        return width + (wide ? 2 : (scalar.properties.generalCategory == .nonspacingMark ? 0 : 1))
    }
}

/// Cuts a string to at most `width` terminal cells, marking the cut with "…".
public func truncate(_ text: String, toWidth width: Int) -> String {
    guard terminalWidth(text) > width else { return text }
    var result = ""
    for character in text {
        if terminalWidth(result + String(character)) > width - 1 { break }
        result.append(character)
    }
    return result + "…"
}
