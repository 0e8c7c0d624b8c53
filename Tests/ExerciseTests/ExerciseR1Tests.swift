import ExerciseChecks
import Foundation
import Testing

/// Exercise R1's checks, three ways, as for every exercise:
/// - the reference solution must pass them all (always);
/// - the exercise file as shipped must fail at least one (it has a planted race);
/// - once the learner has changed the file, it must pass them all.
/// The checks compile each file with a driver and run it in a child process, plainly and under
/// the thread sanitizer: the racy code never runs in this process, so `swift test` and
/// `swift test --sanitize=thread` both stay green with the racy file as shipped.
struct ExerciseR1Tests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func referenceSolutionPassesEveryCheck() {
        let results = ExerciseR1Checks.run(file: Self.packageRoot.appendingPathComponent(ExerciseR1Checks.referenceFile).path)
        #expect(results.count == 3)
        for result in results { #expect(result.passed, "\(result)") }
    }

    @Test func exerciseFile() throws {
        let path = Self.packageRoot.appendingPathComponent(ExerciseR1Checks.exerciseFile).path
        let fingerprint = try #require(ShippedFile.fingerprint(of: path), "cannot read \(path)")
        let results = ExerciseR1Checks.run(file: path)
        let report = results.map(\.description).joined(separator: "\n")
        if fingerprint == ExerciseR1Checks.shippedFingerprint {
            // Untouched: the sanitizer must catch the planted race.
            let race = try #require(results.first { $0.name == "no data race under the thread sanitizer" }, "\(report)")
            #expect(!race.passed, "the exercise as shipped passes every check:\n\(report)")
            #expect(race.got.contains("RequestCounter.record(_:)"), "the report names the racy method, demangled:\n\(report)")
        } else {
            print("Exercise R1 (\(ExerciseR1Checks.exerciseFile)):\n\(report)")
            #expect(results.allSatisfy { $0.passed }, "not yet:\n\(report)")
        }
    }

    /// The half fix (a lock around the writes, none around the reads) must not pass.
    @Test func aLockAroundTheWritesAloneIsCaught() throws {
        let shipped = try String(contentsOfFile: Self.packageRoot.appendingPathComponent(ExerciseR1Checks.exerciseFile).path, encoding: .utf8)
        let halfFixed = shipped
            .replacingOccurrences(of: "    private var counts: [String: Int] = [:]\n",
                                  with: "    private var counts: [String: Int] = [:]\n    private let lock = NSLock()\n")
            .replacingOccurrences(of: "        counts[path, default: 0] += 1", with: "        lock.withLock { counts[path, default: 0] += 1 }")
        try #require(halfFixed.contains("lock.withLock") && halfFixed.contains("private let lock"), "the shipped file changed shape")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("HalfFixed-\(UUID().uuidString).swift")
        try Data(halfFixed.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let results = ExerciseR1Checks.run(file: file.path)
        let race = try #require(results.first { $0.name == "no data race under the thread sanitizer" }, "\(results)")
        #expect(!race.passed, "\(race)")
        #expect(race.got.contains("RequestCounter.total.getter"), "\(race)")
    }

    @Test func theSanitizerReportIsReadInOneLine() {
        let stderr = """
            ==================
            WARNING: ThreadSanitizer: Swift access race (pid=20072)
              Modifying access of Swift variable at 0x720800001030 by thread T3:
                #0 $s9RaceCheck14RequestCounterC6recordyySSF <null> (tsan+0x100ebb) (BuildId: fa4c)
                #1 $s9RaceCheck4mainyyYaFyScGyytGzYaXEfU_yyYacfU_TY0_ main-1.o (tsan+0xff795) (BuildId: fa4c)

              Previous read of size 8 at 0x720800001030 by main thread:
                #0 $s9RaceCheck14RequestCounterC5totalSivg <null> (tsan+0x100ebb) (BuildId: fa4c)

            SUMMARY: ThreadSanitizer: Swift access race (/tmp/tsan+0x100ebb) in $s9RaceCheck14RequestCounterC6recordyySSF
            ==================
            WARNING: ThreadSanitizer: data race (pid=20072)
            """
        let report = TSanReport(stderr)
        #expect(report.races == 2)
        #expect(report.summary == "Swift access race: Modifying access by thread T3 in RequestCounter.record(_:); "
                + "Previous read by main thread in RequestCounter.total.getter (and 1 more report(s))", "\(report.summary)")
        #expect(TSanReport("all fine\n").races == 0)
    }
}
