import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One lesson program run for the room: its output shown as it comes. On a terminal the
/// program gets a pseudo-terminal of its own, so it draws its live table as it would at the
/// instructor's prompt, yet can never change the instructor's terminal settings; without a
/// terminal it writes into a pipe (plain lines). Stdin is /dev/null: the keys stay the presenter's.
final class LiveRun: Sendable {
    enum End: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Stopped by the presenter (`q` or Ctrl-C during the run).
        case stopped
        case couldNotStart(String)
    }

    private let process = Process()
    private let stopped = Locked(false)
    private let relayed = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    /// Our end of the pseudo-terminal or pipe; -1 when the program did not start.
    private let reading: Int32
    /// Why the program did not start; nil when it did.
    private let failure: String?

    /// Starts `binary arguments`; `columns` is the width it may draw in.
    init(_ binary: String, _ arguments: [String], columns: Int) {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = String(columns)  // the Screen's width
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        guard let (ours, theirs) = Self.channel(terminal: isatty(STDOUT_FILENO) == 1) else {
            failure = localized("no pseudo-terminal or pipe to run it in")
            reading = -1
            return
        }
        let handle = FileHandle(fileDescriptor: theirs, closeOnDealloc: false)
        process.standardOutput = handle
        process.standardError = handle
        do {
            try process.run()
        } catch {
            close(theirs)
            close(ours)
            failure = "\(error)"
            reading = -1
            return
        }
        close(theirs)  // the program holds it now: when it ends, our reads end
        reading = ours
        failure = nil
        Thread.detachNewThread { [self] in relay() }
    }

    /// A pseudo-terminal (for a terminal) or a pipe: (our end, the program's end), both closed on exec of anything else.
    static func channel(terminal: Bool) -> (Int32, Int32)? {
        if terminal, let pair = PseudoTerminal.openPair() { return pair }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Copies what the program writes to our stdout until its end closes
    /// (a pseudo-terminal then reads as an error, a pipe as the end of the file).
    private func relay() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(reading, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                if written <= 0 && errno != EINTR { break }
                offset += max(0, written)
            }
        }
        close(reading)
        relayed.signal()
    }

    /// Waits up to `timeout` seconds for the program to end; its end, or nil while it runs.
    func wait(timeout: Double) -> End? {
        if let failure { return .couldNotStart(failure) }
        guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        exited.signal()  // a later wait returns at once too
        // Its last lines may still be on their way through the relay; a grandchild holding the
        // terminal open must not hold us, hence the limit.
        if relayed.wait(timeout: .now() + 2) == .success { relayed.signal() }
        if stopped.current { return .stopped }
        return process.terminationReason == .uncaughtSignal
            ? .signaled(process.terminationStatus) : .exited(process.terminationStatus)
    }

    /// Stops the program and what it started (SIGTERM to its process group, SIGKILL after
    /// `grace` seconds), and waits for it.
    func stop(grace: Double = 2) -> End {
        if let failure { return .couldNotStart(failure) }
        stopped.withLock { $0 = true }
        let pid = process.processIdentifier
        if let end = wait(timeout: 0) { return end }
        kill(-pid, SIGTERM)
        kill(pid, SIGTERM)
        if let end = wait(timeout: grace) { return end }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        return wait(timeout: grace) ?? .stopped
    }
}
