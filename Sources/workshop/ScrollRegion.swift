import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The presenter's split screen on a terminal: the step's banner stays at the top while the
/// lesson's output scrolls below it, in a scroll region (DECSTBM, `ESC [ top ; bottom r`:
/// lines that reach the bottom scroll up inside the region only). The banner's last line, the
/// keys, is rewritten in place as the step goes on (`keys(_:)`). Set for each step's banner and
/// reset before the next one, and on every way out (`KeyInput.restore()`), so the shell after
/// the presenter gets its whole screen back.
enum ScrollRegion {
    struct Split: Equatable {
        /// The first row of the output (1-based): the row under the banner.
        var top: Int
        /// The last row of the screen.
        var bottom: Int
        /// The banner's row that says which keys do what.
        var keysRow: Int
    }

    /// The split on the screen now, if any. Locked: the main thread sets it, a signal's handler
    /// queue and `atexit` reset it.
    private static let current = Locked<Split?>(nil)

    /// The fewest rows worth a region: on a smaller terminal the banner scrolls away as before.
    static let fewestOutputRows = 6

    /// The terminal's height in rows, or nil without a terminal.
    static func terminalRows() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else {
            return nil
        }
        return Int(size.ws_row)
    }

    /// The split for a banner of `bannerRows` rows (its last one the keys) on a screen of `rows`:
    /// nil when too few rows would be left for the output.
    static func split(bannerRows: Int, rows: Int) -> Split? {
        guard bannerRows > 0, rows - bannerRows >= fewestOutputRows else { return nil }
        return Split(top: bannerRows + 1, bottom: rows, keysRow: bannerRows)
    }

    /// The escape sequences that set `split` and put the cursor on its first row.
    static func setting(_ split: Split) -> String { "\u{1B}[\(split.top);\(split.bottom)r\u{1B}[\(split.top);1H" }

    /// Below a banner of `bannerRows` rows just drawn from the top of the screen: the output
    /// scrolls under it from now on. Nothing without a terminal or on a small one.
    static func start(bannerRows: Int) {
        guard let rows = terminalRows(), let split = split(bannerRows: bannerRows, rows: rows) else { return }
        current.withLock { $0 = split }
        write(setting(split))
    }

    /// Whether the output scrolls under a fixed banner now.
    static var isSet: Bool { current.current != nil }

    /// Clears the output part, for a run again: the cursor goes to its first row.
    static func clearOutput() {
        guard let split = current.current else { return }
        write("\u{1B}[\(split.top);1H\u{1B}[J")
    }

    /// Writes `line` over the banner's keys row, the cursor left where the output is; false
    /// when there is no split (the caller prints the line instead).
    static func keys(_ line: String) -> Bool {
        guard let split = current.current else { return false }
        // Save the cursor, go to the keys row, clear it, write, come back.
        write("\u{1B}7\u{1B}[\(split.keysRow);1H\u{1B}[2K" + line + "\u{1B}8")
        return true
    }

    /// The whole screen scrolls again (`ESC [ r`), and the cursor goes to its last row, so what
    /// comes next (the next banner, or the shell) starts below everything shown. Any number of
    /// times, from any thread.
    static func reset() {
        let split = current.withLock { split in
            defer { split = nil }
            return split
        }
        guard let split else { return }
        write("\u{1B}[r\u{1B}[\(split.bottom);1H\n")
    }

    private static func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}
