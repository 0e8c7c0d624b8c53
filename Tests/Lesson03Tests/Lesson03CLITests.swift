import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lesson03` binary for what is lesson 03's own; what every lesson promises
/// (the report's shape, flags, help, Japanese, a cancel, a failing server) is the contract
/// suite's (`LessonContractTests`, from `LessonContract.lesson03`).
@Suite struct Lesson03CLITests {
    @Test("4 rows fit on the 8-row screen: the default scrolls move nothing, so no icon twice")
    func rowsThatFitFetchEachIconOnce() throws {
        let document = try LessonBinary("lesson03").report(["--rows", "4", "--latency", "0.02"])
        #expect(document.counts(.requestsServed) == [5, 5, 5])
    }

    @Test func withAnotherServerTheBannerDoesNotClaimOurDefaults() throws {
        let server = try TestServer()
        defer { server.stop() }
        let outcome = try LessonBinary("lesson03").run([
            "--server", server.endpoint.baseURL.absoluteString, "--rows", "2",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("that server's own latency and bandwidth"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("0.15 s"), "\(outcome.stdout)")
    }
}

/// A run that got busy says so and compares nothing; a quiet one keeps its comparisons. The
/// harness's verdict, seen through lesson 03: the machine made busy or quiet by the test's word
/// (`SAKUSAKU_MACHINE`), never by how busy the machine running the test happens to be.
@Suite struct BusyRunTests {
    static let short = ["--rows", "4", "--latency", "0.02"]
    /// What lesson 03's takeaway compares, in each language.
    static let comparisons = [
        "did not make the network faster", "as free and as fast as", "less free", "but slower", "freer",
        "faster than",
        "ネットワークが速くなったわけではありません", "同じくらい",
    ]

    @Test(arguments: [
        ("en", "(a busy machine: see the takeaway)", "This run was busy, so its figures are not compared."),
        ("ja", "(マシンが混んでいます。まとめを見てください)", "この実行の間はマシンが混んでいたので、数字を比べません。"),
    ])
    func aBusyRunSaysSoAndComparesNothing(_ language: String, _ busyLine: String, _ takeaway: String) throws {
        let run = try LessonBinary("lesson03").run(Self.short + ["--lang", language], machine: "busy")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(busyLine), "\(run.stdout)")
        #expect(run.stdout.contains(takeaway), "\(run.stdout)")
        // What to run again: the same command.
        #expect(
            run.stdout.contains(
                "`swift run lesson03 --rows 4 --latency 0.02 --lang \(language) --control-seconds 0.1`"),
            "\(run.stdout)")
        for phrase in Self.comparisons { #expect(!run.stdout.contains(phrase), "\(phrase): \(run.stdout)") }
        if language == "ja" {
            #expect(EnglishSentences.lines(in: run.stdout) == [], "\(run.stdout)")
        }
    }

    @Test("the JSON report's takeaway of a busy run: an API, in English")
    func aBusyRunsJSONTakeawaySaysSoInEnglish() throws {
        let json = try LessonBinary("lesson03").run(Self.short + ["--json"], machine: "busy")
        let document = try #require(json.document, "\(json.stdout)")
        let takeaway = document.object["takeaway"] as? String ?? ""
        #expect(takeaway.hasPrefix("This run was busy, so"), "\(takeaway)")
    }

    @Test func aQuietRunKeepsItsComparisons() throws {
        let run = try LessonBinary("lesson03").run(Self.short, machine: "quiet")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("did not make the network faster"), "\(run.stdout)")
        #expect(!run.stdout.contains("busy"), "\(run.stdout)")
        #expect(run.stdout.contains("late (quiet)."), "\(run.stdout)")
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct Lesson03CLISlowTests {
    /// A machine made busy for real: as many processes as it has cores, each spinning, while
    /// lesson 03 runs with nothing told (`machine: nil`). The counters see the other programs;
    /// the takeaway says the run was busy and compares nothing. It loads every core, so it
    /// holds the machine while it runs (`.machineTurn`): no test that weighs time runs beside it.
    @Test(.machineTurn) func aRunMadeBusyByOtherProgramsSaysSo() throws {
        let cores = min(64, max(2, MachineLoad.cores))
        var spinners: [Process] = []
        defer {
            // SIGKILL, not `terminate()`'s SIGTERM: a process started from a Swift Testing test
            // inherits the signal mask of the pool thread that started it, which blocks SIGTERM.
            for spinner in spinners where spinner.isRunning { kill(spinner.processIdentifier, SIGKILL) }
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
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(a busy machine: see the takeaway)"), "\(run.stdout)")
        #expect(run.stdout.contains("other programs used"), "\(run.stdout)")
        for phrase in BusyRunTests.comparisons {
            #expect(!run.stdout.contains(phrase), "\(phrase): \(run.stdout)")
        }
    }

    @Test func scrollingWithAndWithoutTheCache() throws {
        // 12 rows, 4 on the screen, down a screenful and back: the cache saves the 4 rows that come back.
        let arguments = ["--rows", "12", "--visible-rows", "4", "--scroll", "down 4, up 4", "--latency", "0"]
        let cached = try LessonBinary("lesson03").report(arguments)
        let uncached = try LessonBinary("lesson03").report(arguments + ["--no-cache"])
        #expect(cached.counts(.iconRequests) == [8, 8, 8])
        #expect(cached.counts(.iconCacheHits) == [4, 4, 4])
        #expect(uncached.counts(.iconRequests) == [12, 12, 12])
        #expect(uncached.counts(.requestsServed) == [13, 13, 13])
    }
}
