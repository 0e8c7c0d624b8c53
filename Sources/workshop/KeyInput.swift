import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the presenter asked for: a key on a terminal, or a line when stdin is a pipe or a file.
enum PresenterKey: Equatable {
    /// Space, Enter, `n`, the right arrow; an empty line.
    case next
    /// `b`, the left arrow.
    case back
    /// `r`: run the step's command again.
    case again
    /// `q`, or the end of the input.
    case quit
    /// Ctrl-C (a byte, since the terminal's signals are off while keys are read one by one).
    case interrupt
    /// Anything else: ignored.
    case other
}

/// Reads the presenter's keys. On a terminal, one key press at a time with no echo: the
/// terminal is put in "cbreak" mode (no line editing, no echo, Ctrl-C as a byte) and restored
/// on every way out: `restore()`, normal exit and `exit()` (an `atexit` hook), and the
/// signals `PresenterSignals` catches. Output processing stays on, so the lessons' lines
/// still end where they should. Without a terminal, reads lines (`n`, `b`, `r`, `q`, or empty).
enum KeyInput {
    /// The terminal's settings before cbreak mode, to put back; nil when nothing was changed.
    /// Locked: the main thread sets it, a signal's handler queue and `atexit` read it.
    private static let saved = Locked<termios?>(nil)

    static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Keys one by one from now on (a terminal only; a no-op otherwise).
    static func startCbreak() {
        guard isTerminal else { return }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        saved.withLock { $0 = settings }
        atexit { KeyInput.restore() }
        var cbreak = settings
        cbreak.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        cbreak.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &cbreak.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &cbreak)
    }

    /// Puts the terminal back as it was (any number of times, from any thread): its settings,
    /// and the whole screen scrolling again (`ScrollRegion`).
    static func restore() {
        ScrollRegion.reset()
        saved.withLock { settings in
            guard var original = settings else { return }
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
        }
    }

    /// The next key, or nil when none came within `timeout` seconds (nil: wait as long as it takes).
    static func next(timeout: Double?) -> PresenterKey? {
        if !isTerminal, let line = takeLine() { return key(line: line) }
        guard readable(timeout: timeout) else { return nil }
        if isTerminal { return readKey() }
        var chunk = [UInt8](repeating: 0, count: 256)
        let count = read(STDIN_FILENO, &chunk, chunk.count)
        guard count > 0 else {
            // The end of the input: a last line without its newline still counts.
            let rest = pending.withLock { bytes in
                defer { bytes = [] }
                return bytes
            }
            return rest.isEmpty ? .quit : key(line: String(decoding: rest, as: UTF8.self))
        }
        pending.withLock { $0 += chunk[..<count] }
        return takeLine().map(key(line:)) ?? .other
    }

    /// Bytes read from a pipe and not yet a whole line (a script may send several lines at
    /// once). Locked because it is a static: only the main thread uses it, which the compiler cannot know.
    private static let pending = Locked<[UInt8]>([])

    /// The first whole line read and not yet used, without its newline.
    static func takeLine() -> String? {
        pending.withLock { bytes in
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { bytes.removeSubrange(...end) }
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }

    /// Whether stdin has something to read within `timeout` seconds (or at its end).
    static func readable(timeout: Double?) -> Bool {
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(max(0, $0) * 1000) } ?? -1
        let ready = poll(&poller, 1, milliseconds)
        return ready > 0 || (ready < 0 && errno != EINTR)
    }

    /// One key press: a byte, or an arrow's escape sequence (ESC [ C / ESC [ D).
    static func readKey() -> PresenterKey {
        guard let byte = readByte() else { return .quit }
        if byte == 0x1B {
            // An arrow sends its three bytes at once; a lone Escape has nothing after it.
            guard readable(timeout: 0.05), readByte() == UInt8(ascii: "["), readable(timeout: 0.05) else {
                return .other
            }
            switch readByte() {
            case UInt8(ascii: "C"): return .next
            case UInt8(ascii: "D"): return .back
            default: return .other
            }
        }
        return key(byte: byte)
    }

    static func key(byte: UInt8) -> PresenterKey {
        switch byte {
        case 0x03: .interrupt
        case 0x04: .quit  // Ctrl-D
        case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "n"): .next
        case UInt8(ascii: "b"): .back
        case UInt8(ascii: "r"): .again
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): .quit
        default: .other
        }
    }

    static func key(line: String) -> PresenterKey {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        return word.isEmpty ? .next : word.utf8.first.map(key(byte:)) ?? .other
    }

    static func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
