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
        /// Seconds from its start to its end: not the wait for a slot before it started.
        public var seconds: Double

        public init(
            status: Int32, signaled: Bool, timedOut: Bool, stdout: String, stderr: String, seconds: Double = 0
        ) {
            self.status = status
            self.signaled = signaled
            self.timedOut = timedOut
            self.stdout = stdout
            self.stderr = stderr
            self.seconds = seconds
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
        let started = monotonicSeconds()
        let child = try Child(
            program, arguments, environment: environment, currentDirectory: currentDirectory, memoryLimit: memoryLimit)
        let pid = child.pid
        running.withLock { _ = $0.insert(pid) }
        defer { running.withLock { _ = $0.remove(pid) } }
        var timedOut = false
        var end = child.wait(timeout: clamped(timeout))
        if end == nil {
            timedOut = true
            if backtraceOnTimeout {
                // SIGILL, which Swift's crash reporter answers with a backtrace: not SIGQUIT, which
                // a program started in the background (or by `swift test`) inherits as ignored.
                // The reporter prints "Backtrace took N s" when it is done; the program does not
                // always end by itself afterwards.
                child.signal(SIGILL)
                child.waitForOutput(timeout: backtraceGrace) { $0.stderrText.contains("Backtrace took") }
                child.signalGroup(SIGKILL)
            } else {
                child.signalGroup(SIGTERM)
                if child.wait(timeout: killGrace) == nil { child.signalGroup(SIGKILL) }
            }
            end = child.wait(timeout: killGrace)
        }
        let output = child.output
        // Not reaped even after SIGKILL: reported as stopped by it.
        let ending = end ?? Child.End(status: SIGKILL, signaled: true)
        return Outcome(
            status: ending.status, signaled: ending.signaled, timedOut: timedOut, stdout: output.stdoutText,
            stderr: output.stderrText, seconds: monotonicSeconds() - started)
    }

    /// `run`, awaited: the child is waited for on a thread of its own, in one of `slots`, so
    /// that the task holds none of the few threads Swift's concurrency runs tasks on meanwhile.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeout: Double, memoryLimit: MemoryLimit = .inherit,
        backtraceOnTimeout: Bool = false, in slots: Slots
    ) async throws -> Outcome {
        try await slots.run {
            try run(
                program, arguments, environment: environment, currentDirectory: currentDirectory, timeout: timeout,
                memoryLimit: memoryLimit, backtraceOnTimeout: backtraceOnTimeout)
        }
    }

    /// Work that blocks (a child process waited for, a compile), at most `width` pieces at a
    /// time, each on a thread of its own. For tasks that start children: a task that blocked
    /// on one would hold one of the threads Swift's concurrency runs every task on (as many
    /// as cores), and two of them would stop every other task of the process meanwhile (a
    /// test suite's, for one); unbounded, a test suite would start every child at once.
    public actor Slots {
        /// As many as the machine has cores, and at least two: what `swift test`'s suites share
        /// for the children that work (a compile, a check, a lesson's run).
        public static let shared = Slots(width: max(2, ProcessInfo.processInfo.activeProcessorCount))
        /// No bound: for children that mostly wait, or answer at once (a terminal's screen read
        /// while a lesson runs in it, git), and must not queue behind a compile.
        public static let unlimited = Slots(width: .max)

        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        public init(width: Int) { free = max(1, width) }

        /// Runs `work` on a thread of its own once a slot is free, and returns what it returned.
        public func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
            if free > 0 {
                free -= 1
            } else {
                await withCheckedContinuation { waiting.append($0) }  // handed a slot by `release`
            }
            defer { release() }
            return try await withCheckedThrowingContinuation { done in
                Thread.detachNewThread { done.resume(with: Swift.Result { try work() }) }
            }
        }

        private func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
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

    /// Sends `signal` to the child's process group (`Child` starts each child in a group of
    /// its own, so this reaches what the child started too) and to the child itself.
    static func stopGroup(_ pid: pid_t, _ signal: Int32, leader: Bool = true) {
        guard pid > 0 else { return }
        kill(-pid, signal)
        if leader { kill(pid, signal) }
    }
}
