import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Other load on the machine, made on purpose: `count` processes that each keep a core busy,
/// the way a video call and a browser do in a workshop room (`yes > /dev/null`, in effect).
/// They are stopped however the program ends: `stop()` when it is done, the Ctrl-C/SIGTERM
/// handler `stopOnSignals` installs, and, should the program be killed outright, each
/// process's own loop, which ends as soon as its parent is gone.
final class BusyLoad: Sendable {
    /// The running busy processes. A lock: `stop()` may come from the main thread or from the
    /// signal handler's queue.
    private let processes = Locked<[Process]>([])

    /// Starts `count` busy processes. Call `stopOnSignals()` first: a Ctrl-C between the two
    /// would leave them to end by themselves.
    func start(count: Int) throws {
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // `kill -0` is the shell's own (no new process): "is my parent still there?", as fast as it can.
            // Its name ($0) says whose it is: `workshop-busy-<pid of this program>`.
            process.arguments = [
                "-c", "parent=$PPID; while kill -0 \"$parent\" 2>/dev/null; do :; done", "workshop-busy-\(getpid())",
            ]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.withLock { $0.append(process) }
        }
    }

    var count: Int { processes.current.count }

    /// Stops every busy process and waits (at most 5 s) for each to end.
    func stop() {
        let stopped = processes.withLock { processes -> [Process] in
            defer { processes = [] }
            return processes
        }
        for process in stopped where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = Date(timeIntervalSinceNow: 5)
        for process in stopped {
            while process.isRunning && Date() < deadline { usleep(10_000) }  // a reap, not a handoff between threads
        }
    }

    /// On Ctrl-C or SIGTERM: stop the busy processes and every check still running, then exit
    /// as the signal would have (130 or 143). Keep the returned sources alive while it matters.
    func stopOnSignals() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                stop()
                Subprocess.stopAll()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
