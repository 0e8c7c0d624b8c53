import Foundation
import LessonTestSupport
import WorkshopCore
import XCTest

/// Drives the built `lesson03` binary for what is lesson 03's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson03`).
final class Lesson03CLITests: XCTestCase {
    /// 4 rows fit on the 8-row screen: the default scrolls move nothing, so no icon twice.
    func testRowsThatFitFetchEachIconOnce() throws {
        let document = try LessonBinary("lesson03").report(["--rows", "4", "--latency", "0.02"])
        XCTAssertEqual(document.counts(.requestsServed), [5, 5, 5])
    }

    func testWithAnotherServerTheBannerDoesNotClaimOurDefaults() throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try LessonBinary("lesson03").run([
            "--server", server.endpoint.baseURL.absoluteString, "--rows", "2",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("that server's own latency and bandwidth"), outcome.stdout)
        XCTAssertFalse(outcome.stdout.contains("0.15 s"), outcome.stdout)
    }
}

/// A run that got busy says so and compares nothing; a quiet one keeps its comparisons. The
/// harness's verdict, seen through lesson 03: the machine made busy or quiet by the test's word
/// (`SAKUSAKU_MACHINE`), never by how busy the machine running the test happens to be.
final class BusyRunTests: XCTestCase {
    static let short = ["--rows", "4", "--latency", "0.02"]
    /// What lesson 03's takeaway compares, in each language.
    static let comparisons = [
        "did not make the network faster", "as free and as fast as", "less free", "but slower", "freer",
        "faster than",
        "ネットワークが速くなったわけではありません", "同じくらい",
    ]

    func testABusyRunSaysSoAndComparesNothing() throws {
        for (language, busyLine, takeaway) in [
            ("en", "(a busy machine: see the takeaway)", "This run was busy, so its figures are not compared."),
            ("ja", "(マシンが混んでいます。まとめを見てください)", "この実行の間はマシンが混んでいたので、数字を比べません。"),
        ] {
            let run = try LessonBinary("lesson03").run(Self.short + ["--lang", language], machine: "busy")
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stdout.contains(busyLine), run.stdout)
            XCTAssertTrue(run.stdout.contains(takeaway), run.stdout)
            // What to run again: the same command.
            XCTAssertTrue(
                run.stdout.contains(
                    "`swift run lesson03 --rows 4 --latency 0.02 --lang \(language) --control-seconds 0.1`"),
                run.stdout)
            for phrase in Self.comparisons { XCTAssertFalse(run.stdout.contains(phrase), "\(phrase): \(run.stdout)") }
            if language == "ja" {
                XCTAssertEqual(EnglishSentences.lines(in: run.stdout), [], run.stdout)
            }
        }
        // The JSON report's takeaway too: an API, in English.
        let json = try LessonBinary("lesson03").run(Self.short + ["--json"], machine: "busy")
        let document = try XCTUnwrap(json.document, json.stdout)
        let takeaway = document.object["takeaway"] as? String ?? ""
        XCTAssertTrue(takeaway.hasPrefix("This run was busy, so"), takeaway)
    }

    func testAQuietRunKeepsItsComparisons() throws {
        let run = try LessonBinary("lesson03").run(Self.short, machine: "quiet")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("did not make the network faster"), run.stdout)
        XCTAssertFalse(run.stdout.contains("busy"), run.stdout)
        XCTAssertTrue(run.stdout.contains("late (quiet)."), run.stdout)
    }
}

/// The slow tier (`swift test --filter SlowTests`).
final class Lesson03CLISlowTests: XCTestCase {
    /// A machine made busy for real: as many processes as it has cores, each spinning, while
    /// lesson 03 runs with nothing told (`machine: nil`). The counters see the other programs;
    /// the takeaway says the run was busy and compares nothing.
    func testARunMadeBusyByOtherProgramsSaysSo() throws {
        let cores = min(64, max(2, MachineLoad.cores))
        var spinners: [Process] = []
        defer {
            for spinner in spinners where spinner.isRunning { spinner.terminate() }
            for spinner in spinners { spinner.waitUntilExit() }
        }
        for _ in 0..<cores {
            let spinner = Process()
            spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
            // Ends by itself should the test be killed before its `defer`: it spins while its parent lives.
            spinner.arguments = ["-c", "parent=$PPID; while kill -0 \"$parent\" 2>/dev/null; do :; done"]
            try spinner.run()
            spinners.append(spinner)
        }
        let run = try LessonBinary("lesson03").run(
            BusyRunTests.short + ["--variant", "threaded", "--control-seconds", "1"], machine: nil)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("(a busy machine: see the takeaway)"), run.stdout)
        XCTAssertTrue(run.stdout.contains("other programs used"), run.stdout)
        for phrase in BusyRunTests.comparisons {
            XCTAssertFalse(run.stdout.contains(phrase), "\(phrase): \(run.stdout)")
        }
    }

    func testScrollingWithAndWithoutTheCache() throws {
        // 12 rows, 4 on the screen, down a screenful and back: the cache saves the 4 rows that come back.
        let arguments = ["--rows", "12", "--visible-rows", "4", "--scroll", "down 4, up 4", "--latency", "0"]
        let cached = try LessonBinary("lesson03").report(arguments)
        let uncached = try LessonBinary("lesson03").report(arguments + ["--no-cache"])
        XCTAssertEqual(cached.counts(.iconRequests), [8, 8, 8])
        XCTAssertEqual(cached.counts(.iconCacheHits), [4, 4, 4])
        XCTAssertEqual(uncached.counts(.iconRequests), [12, 12, 12])
        XCTAssertEqual(uncached.counts(.requestsServed), [13, 13, 13])
    }
}
