import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs another program to the end, with a time limit, and keeps what it printed.
/// The exercise checks use it to compile and run learner code in a child process, the
/// `workshop` CLI to run the checks themselves in one (so a crash in learner code is a
/// failed check, not a dead CLI), and the tests to drive the built lesson binaries.
public enum Subprocess {
    public struct Outcome: Sendable {
        /// The exit status, or the signal number when `signaled`.
        public var status: Int32
        public var signaled: Bool
        public var timedOut: Bool
        public var stdout: String
        public var stderr: String

        public init(status: Int32, signaled: Bool, timedOut: Bool, stdout: String, stderr: String) {
            self.status = status
            self.signaled = signaled
            self.timedOut = timedOut
            self.stdout = stdout
            self.stderr = stderr
        }

        public var succeeded: Bool { !signaled && !timedOut && status == 0 }

        /// "exit status 1", "signal 4 (SIGILL, a trap)", "no answer within 60 s".
        public func describeEnd(timeout: Double) -> String {
            if timedOut { return "no answer within \(Int(timeout)) s" }
            if signaled { return "stopped by signal \(status)\(Self.signalNames[status].map { " (\($0))" } ?? "")" }
            return "exit status \(status)"
        }

        static let signalNames: [Int32: String] = [
            3: "SIGQUIT", 4: "SIGILL: a trap, e.g. a failed precondition",
            5: "SIGTRAP: a trap, e.g. a failed precondition", 6: "SIGABRT", 9: "SIGKILL",
            11: "SIGSEGV: a bad memory access", 15: "SIGTERM",
        ]
    }

    /// How much memory the child may map (private writable memory: its heap, its threads'
    /// stacks; RLIMIT_DATA, which Linux counts for `mmap` too since 4.7).
    public enum MemoryLimit: Sendable, Equatable {
        /// Whatever this process has (a limit set on it is inherited).
        case inherit
        /// At most this many bytes: an allocation beyond it fails (Swift then stops the program
        /// with "failed to allocate ... bytes of memory") instead of taking the machine's memory.
        /// Set as the soft limit, so a program may raise it again for a child of its own.
        case bytes(Int)
        /// No limit (the soft limit raised to the hard one): a thread-sanitized program needs
        /// terabytes of address space for its shadow memory.
        case unlimited
    }

    /// The variable that carries a deadline (seconds since 1970) into a child: a `run` in a
    /// process that has it ends its own children before it, so that no grandchild outlives the
    /// child a timeout stopped.
    public static let deadlineVariable = "WORKSHOP_DEADLINE"

    /// The path of an executable product built next to the running test bundle (or program),
    /// e.g. `builtProduct("lesson03")`; nil when it has not been built.
    public static func builtProduct(_ name: String) -> String? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `program` (looked up on PATH unless it contains a "/") with `arguments`.
    /// Standard input is /dev/null. After `timeout` seconds the program is stopped: with
    /// `backtraceOnTimeout`, first with SIGILL, which Swift's crash reporter answers with a
    /// backtrace of every thread on stderr (at most `backtraceGrace` seconds are given to it),
    /// else with SIGTERM; then, `killGrace` seconds later, with SIGKILL, its whole process group.
    /// Never traps: a child that is not reaped even after SIGKILL is reported as stopped by it.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeout: Double, memoryLimit: MemoryLimit = .inherit,
        backtraceOnTimeout: Bool = false, backtraceGrace: Double = 5, killGrace: Double = 5
    ) throws -> Outcome {
        let process = Process()
        var command = [program] + arguments
        switch memoryLimit {
        case .inherit: break
        case .bytes(let bytes):
            // `ulimit` is the shell's door to setrlimit; `exec` keeps the process (and its pid) the program's.
            command = ["/bin/sh", "-c", "ulimit -S -d \(max(1, bytes / 1024)) && exec \"$0\" \"$@\""] + command
        case .unlimited:
            command = ["/bin/sh", "-c", "ulimit -S -d unlimited; exec \"$0\" \"$@\""] + command
        }
        if command[0].contains("/") {
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
        }
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        // Both pipes are drained while the child runs, so a full pipe can never block it; what
        // arrived so far can be looked at (a backtrace being written) while it runs.
        let collected = Watched(Output())
        let drained = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            drained.enter()
            Thread.detachNewThread {
                let handle = pipe.fileHandleForReading
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    collected.withLock { output in
                        if isOut { output.stdout += chunk } else { output.stderr += chunk }
                    }
                }
                drained.leave()
            }
        }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in
            collected.withLock { $0.exited = true }
            exited.signal()
        }
        do {
            try process.run()
        } catch {
            // Nothing was started: close our write ends so the readers finish.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            throw error
        }
        let pid = process.processIdentifier
        running.withLock { _ = $0.insert(pid) }
        defer { running.withLock { _ = $0.remove(pid) } }
        var reaped = true
        var timedOut = false
        if exited.wait(timeout: .now() + clamped(timeout)) == .timedOut {
            timedOut = true
            if backtraceOnTimeout {
                // SIGILL, which Swift's crash reporter answers with a backtrace: not SIGQUIT, which
                // a program started in the background (or by `swift test`) inherits as ignored.
                // The reporter prints "Backtrace took N s" when it is done; the program does not
                // always end by itself afterwards.
                kill(pid, SIGILL)
                collected.wait(timeout: backtraceGrace) {
                    $0.exited || String(decoding: $0.stderr, as: UTF8.self).contains("Backtrace took")
                }
                stopGroup(pid, SIGKILL)
            } else {
                stopGroup(pid, SIGTERM)
                if exited.wait(timeout: .now() + killGrace) == .timedOut { stopGroup(pid, SIGKILL) }
            }
            reaped = exited.wait(timeout: .now() + killGrace) == .success
        }
        // A grandchild that outlives the child may still hold the pipes: do not wait forever.
        _ = drained.wait(timeout: .now() + 5)
        let texts = collected.withLock { $0.texts }
        // `terminationStatus` traps ("task still running") on a child not reaped: never read it then.
        guard reaped, !process.isRunning else {
            return Outcome(status: SIGKILL, signaled: true, timedOut: timedOut, stdout: texts.0, stderr: texts.1)
        }
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut, stdout: texts.0, stderr: texts.1)
    }

    /// The children `run` is waiting for now, by pid: every thread of the process may start
    /// one, and `stopAll` (from a signal handler's queue) reads them.
    private static let running = Locked<Set<pid_t>>([])

    /// Kills every child `run` is waiting for, with its process group: for a program that is
    /// itself being stopped (Ctrl-C), so that no check outlives it. Each `run` then returns.
    public static func stopAll() {
        for pid in running.current { stopGroup(pid, SIGKILL) }
    }

    /// `timeout`, shortened to end a second before the deadline this process was given, if any.
    static func clamped(_ timeout: Double) -> Double {
        guard let text = ProcessInfo.processInfo.environment[deadlineVariable], let deadline = Double(text) else {
            return timeout
        }
        return max(0.1, min(timeout, deadline - Date().timeIntervalSince1970 - 1))
    }

    /// Sends `signal` to the child's process group (Foundation starts each child in a group of
    /// its own, so this reaches what the child started too) and to the child itself.
    static func stopGroup(_ pid: pid_t, _ signal: Int32) {
        guard pid > 0 else { return }
        kill(-pid, signal)
        kill(pid, signal)
    }

    /// What the child printed so far, and whether it has exited: kept in a `Watched`, so that
    /// the two reader threads append, and `run` reads and waits for a backtrace to be complete.
    struct Output: Sendable {
        var stdout = Data()
        var stderr = Data()
        var exited = false

        var texts: (String, String) {
            (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
        }
    }
}
