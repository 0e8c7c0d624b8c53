import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson06` binary for what is lesson 06's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel) is the contract suite's
/// (`LessonContractTests`, from `LessonContract.lesson06`).
@Suite struct Lesson06CLITests {
    @Test("batches sized from SQLite's limit (500 terms): 3 commits of 1000 rows, no torn count read")
    func everyVariantSavesInBatchesAndNoCountReadIsTorn() throws {
        let document = try LessonBinary("lesson06").report(["--rows", "3000", "--batch-rows", "1000"])
        #expect(document.parameters[.compoundSelectLimit] as? Int == 500)
        for name in document.variantNames {
            let metrics = document.metrics(name)
            #expect(metrics[.multiRowBatchesRowsPerSecond] as? Double ?? 0 > 0, "\(name)")
            #expect(metrics[.batchCommits] as? Int == 3, "\(name)")
            #expect(metrics[.tornCountReads] as? Int == 0, "\(name)")
        }
    }

    @Test func aLoweredLimitShowsInTheBatchSize() throws {
        let document = try LessonBinary("lesson06").report([
            "--variant", "threaded", "--rows", "500", "--variable-limit", "999",
        ])
        #expect(document.variants.count == 1)
        #expect(document.metrics("threaded")[.rowsPerStatement] as? Int == 333)
    }

    @Test func humanRunReplaysTheArticleAndLeavesNoFilesBehind() throws {
        // A temporary folder of this test's own (TMPDIR), so that other tests running at the
        // same time cannot put files where this one looks.
        let temporary = try ScratchFolder("lesson06-cli-tmp")
        defer { temporary.tearDown() }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.url.path
        environment["NO_COLOR"] = "1"
        let binary = try LessonBinary("lesson06")
        let outcome = try Subprocess.run(binary.path, ["--rows", "2000"], environment: environment, timeout: 90)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        for line in [
            "Error: UNIQUE constraint failed: tblA.id", "100||1\n200|b|0\n300||1", "100|A|0\n200|b|0\n300|c|0",
            "Error: too many terms in compound SELECT", "Error: too many SQL variables",
            MetricName.mainThreadMaxStallSeconds.rawValue,
            "100|B|1\n200|b|0\n300|c|0\n400|d|1", MetricName.updateThenInsertRowsPerSecond.rawValue,
            "async: every strategy in a writer actor",
        ] {
            #expect(outcome.stdout.contains(line), "output lacks \(line)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
        #expect(left == [], "files left behind in the temporary folder")
    }

    @Test func noPlaceForTheDatabasesIsOneClearErrorNotATable() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = "/proc/no-such-folder"
        let binary = try LessonBinary("lesson06")
        let outcome = try Subprocess.run(binary.path, ["--rows", "100"], environment: environment, timeout: 60)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot make a folder for the database files in /proc/no-such-folder"))
        #expect(outcome.stderr.split(separator: "\n").count == 1, "one cause, said once:\n\(outcome.stderr)")
        #expect(
            !outcome.stdout.contains(MetricName.mainThreadMaxStallSeconds.rawValue),
            "a table of runs that never started")
    }
}
