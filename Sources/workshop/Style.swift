import Foundation
import WorkshopCore

/// Plain text everywhere; colour only on a terminal and only without NO_COLOR
/// (https://no-color.org). Nothing here ever waits for input.
enum Style {
    static let color: Bool = {
        guard isatty(STDOUT_FILENO) == 1, ProcessInfo.processInfo.environment["TERM"] != "dumb" else { return false }
        return ProcessInfo.processInfo.environment["NO_COLOR"]?.isEmpty ?? true
    }()

    static func paint(_ text: String, _ code: String) -> String {
        color && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    static func green(_ text: String) -> String { paint(text, "32") }
    static func red(_ text: String) -> String { paint(text, "31") }
    static func dim(_ text: String) -> String { paint(text, "2") }
    static func bold(_ text: String) -> String { paint(text, "1") }

    static func line(_ text: String = "") { say(text) }
    static func warnLine(_ text: String) { warn(text) }

    /// `[########............] 2 of 5 exercises done` in plain ASCII, so it survives any terminal and log.
    static func progressBar(done: Int, of total: Int, width: Int = 24) -> String {
        let filled = total == 0 ? 0 : Int((Double(done) / Double(total) * Double(width)).rounded())
        return "[" + green(String(repeating: "#", count: filled)) + String(repeating: ".", count: width - filled) + "]"
            + " " + Text.progress(done: done, of: total)
    }

    static func status(_ status: Workspace.Status) -> String {
        switch status {
        case .done: green(Text.status(status))
        case .failing: red(Text.status(status))
        case .notStarted: dim(Text.status(status))
        }
    }

    /// Pads `text` to `width` terminal cells (escape codes and wide characters counted right).
    static func pad(_ text: String, _ width: Int, visible: String? = nil) -> String {
        text + String(repeating: " ", count: max(0, width - terminalWidth(visible ?? text)))
    }

    /// Is there a person at a terminal to ask a question?
    static var canAsk: Bool { isatty(STDIN_FILENO) == 1 }
}
