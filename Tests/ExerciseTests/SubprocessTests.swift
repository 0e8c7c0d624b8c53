import Foundation
import WorkshopCore
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// How a check program is run: time limit, memory limit, and a stop that reaches what it started.
final class SubprocessTests: XCTestCase {
    /// A child stopped at its time limit and not reaped at once: before, `run` read
    /// `terminationStatus` anyway and trapped ("task still running"), taking the caller with it.
    func testAChildNotYetReapedAfterItsTimeLimitIsReportedNotTrappedOn() throws {
        for _ in 0..<5 {
            let outcome = try Subprocess.run("sleep", ["30"], timeout: 0.2, killGrace: 0)
            XCTAssertTrue(outcome.timedOut)
            XCTAssertFalse(outcome.succeeded)
        }
    }

    func testTheMemoryLimitIsTheChildsDataLimit() throws {
        let limited = try Subprocess.run("/bin/sh", ["-c", "ulimit -d"], timeout: 30, memoryLimit: .bytes(1 << 30))
        XCTAssertEqual(limited.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1048576", "KB")
        // Soft only: a program may lift it again for a child of its own (R1's thread-sanitized run).
        let lifted = try Subprocess.run(
            "/bin/sh", ["-c", "ulimit -S -d unlimited && ulimit -d"], timeout: 30, memoryLimit: .bytes(1 << 30))
        XCTAssertEqual(lifted.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "unlimited", lifted.stderr)
    }

    /// The stop at the time limit reaches the child's own children (its process group).
    func testTheStopReachesWhatTheChildStarted() throws {
        let outcome = try Subprocess.run(
            "/bin/sh", ["-c", "sleep 30 & echo $!; wait"], timeout: 0.5, killGrace: 2)
        XCTAssertTrue(outcome.timedOut)
        let grandchild = try XCTUnwrap(Int32(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for init to reap it: no longer sleeping. (A poll of the
        // process table with a deadline; nothing of ours runs there.)
        let deadline = Date(timeIntervalSinceNow: 10)
        var alive = true
        while Date() < deadline {
            let stat = try? String(contentsOfFile: "/proc/\(grandchild)/stat", encoding: .utf8)
            let state = stat?.split(separator: ")").last?.split(separator: " ").first
            if stat == nil || state == "Z" || state == "X" {
                alive = false
                break
            }
            usleep(20_000)
        }
        XCTAssertFalse(alive, "the grandchild \(grandchild) still runs")
    }
}
