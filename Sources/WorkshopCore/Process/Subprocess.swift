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

        public var succeeded: Bool { !signaled && !timedOut && status == 0 }

        /// "exit status 1", "signal 4 (SIGILL, a trap)", "no answer within 60 s".
        public func describeEnd(timeout: Double) -> String {
            if timedOut { return "no answer within \(Int(timeout)) s" }
            if signaled { return "stopped by signal \(status)\(Self.signalNames[status].map { " (\($0))" } ?? "")" }
            return "exit status \(status)"
        }

        static let signalNames: [Int32: String] = [
            4: "SIGILL: a trap, e.g. a failed precondition", 5: "SIGTRAP: a trap, e.g. a failed precondition",
            6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV: a bad memory access", 15: "SIGTERM",
        ]
    }

    /// The path of an executable product built next to the running test bundle (or program),
    /// e.g. `builtProduct("lesson03")`; nil when it has not been built.
    public static func builtProduct(_ name: String) -> String? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = directory.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `program` (looked up on PATH unless it contains a "/") with `arguments`.
    /// Standard input is /dev/null. After `timeout` seconds the program is terminated.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeout: Double
    ) throws -> Outcome {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        // Both pipes are drained while the child runs, so a full pipe can never block it.
        let collected = Locked((out: Data(), err: Data()))
        let drained = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            drained.enter()
            Thread.detachNewThread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { if isOut { $0.out = data } else { $0.err = data } }
                drained.leave()
            }
        }
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            // Nothing was started: close our write ends so the readers finish.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            throw error
        }
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            _ = exited.wait(timeout: .now() + 5)
        }
        // A grandchild that outlives the child may still hold the pipes: do not wait forever.
        _ = drained.wait(timeout: .now() + 5)
        let texts = collected.withLock {
            (String(decoding: $0.out, as: UTF8.self), String(decoding: $0.err, as: UTF8.self))
        }
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut, stdout: texts.0, stderr: texts.1)
    }
}
