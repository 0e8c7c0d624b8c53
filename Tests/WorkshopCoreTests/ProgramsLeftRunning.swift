import Foundation
import Testing
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program a test leaves running (a server it talks to), read by its lines and stopped with a
/// signal. Waited for on threads of its own, never one of Swift's pool.
extension Subprocess.Child {
    /// The first line it printed (on stdout or stderr) that contains `text`, once printed.
    func line(containing text: String, timeout: Double = 60) async throws -> String {
        guard
            await waitForOutput(
                timeout: timeout, until: { $0.stdoutText.contains(text) || $0.stderrText.contains(text) })
        else {
            let output = output
            throw Failure(
                description: "no line with '\(text)' within \(timeout) s: \(output.stdoutText)\(output.stderrText)")
        }
        let output = output
        return (output.stdoutText + "\n" + output.stderrText).split(separator: "\n").first { $0.contains(text) }
            .map(String.init) ?? ""
    }

    /// The rest of the first line it printed that starts with `prefix`, once printed.
    func line(startingWith prefix: String, timeout: Double = 60) async throws -> String {
        let line = try await line(containing: prefix, timeout: timeout)
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    /// Sends `signal` and waits at most `timeout` seconds for the end, with all it printed: how
    /// it ended. Nil when it did not: then the failure's text (`stopFailure`) says whether it
    /// still ran (with the backtrace of its threads that Swift's crash reporter prints for a
    /// SIGILL) or had ended while something else still held its output open.
    func stop(_ signal: Int32, timeout: Double) async -> End? {
        self.signal(signal)
        if let end = await wait(timeout: timeout) { return end }
        if end == nil {
            self.signal(SIGILL)
            _ = await waitForOutput(timeout: 10) { $0.stderrText.contains("Backtrace took") }
        }
        signalGroup(SIGKILL)
        return nil
    }

    /// What a `stop` that returned nil found.
    var stopFailure: String {
        let output = output
        let state =
            end == nil
            ? "still running; its threads:"
            : "ended (\(end.map { "\($0)" } ?? "")), its output still held open by another process"
        return "\(state)\n\(output.stderrText.suffix(6000))\n\(output.stdoutText.suffix(2000))"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
