import Foundation
import Testing
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#endif

/// How a check program is run: time limit, memory limit, and a stop that reaches what it started.
@Suite struct SubprocessTests {
    /// A child stopped at its time limit and not reaped at once: before, `run` read
    /// `terminationStatus` anyway and trapped ("task still running"), taking the caller with it.
    @Test func aChildNotYetReapedAfterItsTimeLimitIsReportedNotTrappedOn() throws {
        for _ in 0..<5 {
            let outcome = try Subprocess.run("sleep", ["30"], timeout: 0.2, killGrace: 0)
            #expect(outcome.timedOut)
            #expect(!outcome.succeeded)
        }
    }

    @Test func theMemoryLimitIsTheChildsDataLimit() throws {
        let limited = try Subprocess.run("/bin/sh", ["-c", "ulimit -d"], timeout: 30, memoryLimit: .bytes(1 << 30))
        #expect(limited.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1048576", "KB")
        // Soft only: a program may lift it again for a child of its own (R1's thread-sanitized run).
        let lifted = try Subprocess.run(
            "/bin/sh", ["-c", "ulimit -S -d unlimited && ulimit -d"], timeout: 30, memoryLimit: .bytes(1 << 30))
        #expect(lifted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "unlimited", "\(lifted.stderr)")
    }

    /// The stop at the time limit reaches the child's own children (its process group).
    @Test func theStopReachesWhatTheChildStarted() async throws {
        let outcome = try Subprocess.run("/bin/sh", ["-c", "sleep 30 & echo $!; wait"], timeout: 0.5, killGrace: 2)
        #expect(outcome.timedOut)
        let grandchild = try #require(Int32(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for init to reap it: no longer sleeping. (A poll of the
        // process table with a deadline; nothing of ours runs there.) Each wait is followed by
        // a look: a loaded machine can resume this task after the deadline, and a signal is
        // acted on when its process next runs, so a look from before the wait decides nothing.
        func sleeping() -> Bool {
            let stat = try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8)
            let state = stat?.split(separator: ")").last?.split(separator: " ").first
            return !(stat == nil || state == "Z" || state == "X")
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        var alive = sleeping()
        while alive && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            alive = sleeping()
        }
        #expect(!alive, "the grandchild \(grandchild) still runs")
    }

    /// A child gets this process's descriptors 0-2 made anew (its pipes, /dev/null) and no
    /// other: not one this process opened without close-on-exec, so a grandchild that outlives
    /// a child never holds another child's pipe open.
    @Test func aChildGetsNoDescriptorButItsOwnThree() throws {
        let held = open("/dev/null", O_RDONLY)  // no O_CLOEXEC: inherited, unless closed
        defer { close(held) }
        try #require(held > 2)
        let listed = try Subprocess.run("/bin/sh", ["-c", "ls /proc/$$/fd"], timeout: 30)
        #expect(listed.succeeded, "\(listed.stderr)")
        #expect(listed.stdout.split(separator: "\n").sorted() == ["0", "1", "2"], "\(listed.stdout)")
    }

    /// A child starts with no signal blocked, whatever thread starts it: a thread of Swift's
    /// pool (this test's) blocks most, and `exec` keeps the mask, so SIGTERM at a time limit
    /// or SIGINT to a server would otherwise wait forever.
    @Test func aChildStartsWithNoSignalBlocked() throws {
        let status = try Subprocess.run("/bin/sh", ["-c", "grep SigBlk /proc/self/status"], timeout: 30)
        #expect(status.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }

    /// A child left running: fed on its standard input, its output waited for by what it says,
    /// its end with the status it gave.
    @Test func aChildLeftRunningReadsItsInputAndIsWaitedForByItsOutput() async throws {
        let child = try Subprocess.Child(
            "/bin/sh", ["-c", "read line; echo \"got $line\"; echo done >&2; exit 3"], input: true)
        try child.write(Data("hello\n".utf8))
        #expect(await child.waitForOutput(timeout: 30) { $0.stdoutText.contains("got hello") })
        #expect(await child.wait(timeout: 30) == Subprocess.Child.End(status: 3, signaled: false))
        #expect(child.output.stderrText == "done\n")
        #expect(child.output.ended)
    }

    /// A program that cannot be started is an error, not a child that fails.
    @Test func aProgramThatIsNotThereIsAnError() {
        #expect(throws: Subprocess.SpawnError.self) {
            _ = try Subprocess.Child("/no/such/program", [])
        }
    }
}

/// `Subprocess` in a process that holds many descriptors, as a test process holding a room's
/// sockets does. Foundation's `Process.run()` (up to Swift 6.3.1) crashes there: it copies 256
/// bytes for each entry of /proc/self/fd, past the end of glibc's readdir buffer once about
/// 1,360 descriptors fill it (swift-corelibs-foundation pull request 5472). The same program
/// with `Process` instead crashed in 3 of 5 runs here; it runs in a program of its own, so
/// that a crash ends that program, not the tests.
@Suite(.removing(.manyDescriptors)) struct SubprocessSlowTests {
    static let programs = LinkedPrograms.manyDescriptors

    static let program = #"""
        import Dispatch
        import Foundation
        import WorkshopCore
        #if canImport(Glibc)
            import Glibc
        #endif

        for _ in 0..<1_500 { _ = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for round in 0..<100 {
                // Memory taken in ever other sizes between starts: readdir's buffer lands in
                // ever other places.
                let churn = (0..<(round % 50 + 1)).map { [UInt8](repeating: 1, count: 16 + (($0 + lane) * 797) % 40_000) }
                let outcome = try! Subprocess.run("/bin/true", [], timeout: 60)
                precondition(outcome.succeeded && !churn.isEmpty, "\(outcome)")
            }
        }
        print("started 400 children")

        """#

    @Test func fourThreadsStartChildrenWhileTheProcessHolds1500Descriptors() async throws {
        let binary = try await Self.programs.compile(Self.program)
        let outcome = try await Subprocess.run(binary, [], timeout: 300, in: .shared)
        #expect(outcome.succeeded, "\(outcome.describeEnd(timeout: 300))\n\(outcome.stderr.suffix(3000))")
        #expect(outcome.stdout == "started 400 children\n")
    }
}

extension LinkedPrograms {
    static let manyDescriptors = LinkedPrograms("many-descriptors")
}
