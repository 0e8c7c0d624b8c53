import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// The promises every lesson's program makes (the design's "common lesson CLI"), checked on each
/// built `lessonNN` from the contract it declares in its kit (`LessonContract`, printed by
/// `lessonNN --contract`). The quick part, in the learner's suite; `LessonContractSlowTests`
/// holds the rest. A lesson's own ideas are in its own tests.
@Suite struct LessonContractTests {
    /// Every lesson reports these for every run, beside its own (`contract.metrics`): the time,
    /// the first content, the main thread's worst freeze and dropped frames, and Apple's words
    /// for a freeze.
    static let sharedMetrics: [MetricName] = [
        .totalSeconds, .firstContentSeconds, .mainThreadMaxStallSeconds, .droppedFrames, .hangs, .hangSeconds,
        .hitchRateMsPerSecond,
    ]

    @Test("--json is one document: the lesson, its runs, every figure, the flags as parameters", arguments: Lesson.all)
    func theJSONReport(_ name: String) throws {
        let lesson = try Lesson(name)
        let document = try lesson.document([])
        #expect(document.lesson == lesson.contract.number)
        #expect((document.object["title"] as? String)?.isEmpty == false, "a title")
        #expect(document.variantNames == lesson.contract.runs.map(\.name))
        #expect(document.lacking(Self.sharedMetrics + lesson.contract.metrics) == [])
        for run in document.variantNames {
            let metrics = document.metrics(run)
            let first = try #require(metrics[.firstContentSeconds] as? Double)
            #expect(first <= (metrics[.totalSeconds] as? Double ?? 0), "\(run): first content after the end")
            let names = metrics.keys.filter { $0.wholeMatch(of: /[a-z][A-Za-z0-9]*/) == nil }
            #expect(names.isEmpty, "\(run): metric names not in camelCase: \(names)")
        }
        // The async variant is the threaded one in Swift 6: it reports the same figures.
        let threaded = Set(document.metrics("threaded").keys)
        #expect(threaded.subtracting(document.metrics("async").keys).isEmpty, "async lacks threaded's figures")
        // Each number the quick run gives a flag is in the parameters: "--latency 0.02" is latencySeconds 0.02.
        for (flag, value) in zip(lesson.contract.quick, lesson.contract.quick.dropFirst()) where flag.hasPrefix("--") {
            guard let number = Double(value) else { continue }
            let words = flag.dropFirst(2).split(separator: "-")
            let key = (words.first.map(String.init) ?? "") + words.dropFirst().map(\.capitalized).joined()
            guard let given = document.parameters[key] ?? document.parameters[key + "Seconds"] else { continue }
            #expect((given as? Double) == number, "parameter \(key) is \(given), not \(value)")
        }
    }

    @Test("a bad flag value exits 64 with an error that names the flag (and its range)", arguments: Lesson.all)
    func badFlags(_ name: String) throws {
        let lesson = try Lesson(name)
        for flag in lesson.contract.flags {
            for value in flag.refused {
                let outcome = try lesson.run([flag.name, value])
                #expect(outcome.status == 64, "\(flag.name) \(value): exit status \(outcome.status)")
                #expect(outcome.stderr.contains(flag.name), "\(flag.name) \(value): \(outcome.stderr)")
                if let range = flag.range.flatMap({ FlagRange<Double>(flag.name, $0) }), let number = Double(value) {
                    #expect(outcome.stderr.contains(range.refusal(number, in: .en)), "\(outcome.stderr)")
                }
            }
        }
        // A word for a number, and a flag the lesson does not have: the parser's own refusals.
        let number = try #require(lesson.contract.flags.first { $0.range != nil && !$0.hidden })
        for arguments in [[number.name, "many"], ["--no-such-flag"]] {
            let outcome = try lesson.run(arguments)
            #expect(outcome.status == 64, "\(arguments): exit status \(outcome.status)")
            #expect(outcome.stderr.contains(arguments[0]), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test("--lang ja explains a bad value in Japanese (the parser's own words aside)", arguments: Lesson.all)
    func badFlagsInJapanese(_ name: String) throws {
        let lesson = try Lesson(name)
        for flag in lesson.contract.flags {
            guard let value = flag.refused.first else { continue }
            let outcome = try lesson.run([flag.name, value, "--lang", "ja"])
            #expect(outcome.status == 64, "\(flag.name) \(value): exit status \(outcome.status)")
            let error = Lesson.usageError(outcome.stderr)
            #expect(error.contains(flag.name), "\(flag.name) \(value): \(outcome.stderr)")
            if let range = flag.range.flatMap({ FlagRange<Double>(flag.name, $0) }), let number = Double(value) {
                #expect(error.contains(range.refusal(number, in: .ja)), "\(outcome.stderr)")
            }
            // ArgumentParser's own refusals ("The value 'x' is invalid for '--variant'") stay English.
            if !error.hasPrefix("The value '") {
                #expect(EnglishSentences.lines(in: error) == [], "\(flag.name) \(value): \(error)")
            }
        }
    }

    @Test(
        "--help lists every flag with its range, and says what the contract says; --lang ja in Japanese",
        arguments: Lesson.all)
    func help(_ name: String) throws {
        let lesson = try Lesson(name)
        for language in [Language.en, .ja] {
            let outcome = try lesson.run(["--help", "--lang", language.rawValue])
            #expect(outcome.status == 0, "--help --lang \(language): \(outcome.stderr)")
            let help = Lesson.folded(outcome.stdout)
            for flag in lesson.contract.flags {
                // "--items <n>", "--json ", "--cancel/--no-cancel"
                let listed = help.contains(flag.name + " ") || help.contains(flag.name + "/")
                #expect(listed != flag.hidden, "\(language): \(flag.name) \(flag.hidden ? "shown" : "missing")")
                guard !flag.hidden, let range = flag.range.flatMap({ FlagRange<Double>(flag.name, $0) }) else {
                    continue
                }
                #expect(help.contains("(" + range.rangeText(in: language)), "\(language): \(flag.name)'s range")
            }
            // A network lesson's link, as its network flags' defaults: "(0-60; default 0.15)".
            let link = lesson.contract.network.map { [$0.latency.flagText, String($0.bandwidth), $0.timeout.flagText] }
            let defaults = (link ?? []).map { (language == .ja ? "既定 " : "default ") + $0 }
            let phrases = language == .ja ? lesson.contract.japaneseHelp : lesson.contract.help
            #expect(Lesson.missing(phrases + defaults, in: help) == [], "--help --lang \(language)")
        }
    }

    @Test("--lang ja speaks Japanese: the contract's phrases, no English sentence", arguments: Lesson.all)
    func langJa(_ name: String) throws {
        let lesson = try Lesson(name)
        let first = try #require(lesson.contract.japanese.first)
        let output = try lesson.quick(first.arguments + ["--lang", "ja"]).stdout
        #expect(Lesson.missing(first.phrases, in: output) == [], "\(output)")
        #expect(lesson.englishSentences(output) == [])
    }

    @Test(
        "a cancelled run: every variant shows no row, and sends no request beyond the allowance, after the tap",
        arguments: Lesson.all)
    func cancel(_ name: String) throws {
        let lesson = try Lesson(name)
        let document = try lesson.document(lesson.contract.cancel)
        #expect(!document.variantNames.isEmpty)
        for run in document.variantNames {
            let metrics = document.metrics(run)
            #expect(document.failure(run) == nil, "\(run): \(document.failure(run) ?? "")")
            #expect(metrics[.cancelAtSeconds] != nil, "\(run): not a cancelled run")
            #expect(metrics[.rowsAfterCancel] as? Int == 0, "\(run): rows after the cancel")
            // Whatever else the lesson counts after the cancel (lesson 06: rows committed) is 0 too.
            for (key, value) in metrics
            where key.hasSuffix("AfterCancel") && key != MetricName.requestsAfterCancel.rawValue {
                #expect(value as? Int == 0, "\(run): \(key) \(value)")
            }
            guard lesson.contract.network != nil else { continue }
            let requests = try #require(
                metrics[.requestsAfterCancel] as? Int, "\(run): requests after the cancel not counted")
            #expect(requests <= lesson.contract.cancelAllowance, "\(run): \(requests) requests after the cancel")
        }
    }

    @Test("a server nobody listens on is one clear error, not a table", arguments: Lesson.all)
    func unreachableServer(_ name: String) throws {
        let lesson = try Lesson(name)
        guard let network = lesson.contract.network else { return }
        // Port 9 (discard) on loopback: nothing listens there on a normal machine.
        let outcome = try lesson.run(lesson.contract.quick + ["--server", "http://127.0.0.1:9"])
        #expect(outcome.refusedConnectionProblems == [])
        #expect(outcome.stderr.contains(lesson.variantsFailed(lesson.runs(.all))), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(network.firstPath), "\(outcome.stderr)")
    }

    @Test(
        "a server error is explained in Japanese: the variant and the cause, no English sentence", arguments: Lesson.all
    )
    func serverErrorsInJapanese(_ name: String) throws {
        let lesson = try Lesson(name)
        guard let network = lesson.contract.network else { return }
        let common = ["500": ["HTTP 500 を返しました"], "drop": ["応答の途中で接続が切れました"]]
        let causes = common.merging(network.japaneseCauses) { $0 + $1 }
        for (fault, words) in causes.sorted(by: { $0.key < $1.key }) {
            let arguments = ["--fault", fault, "--timeout", "2", "--variant", "threaded", "--lang", "ja"]
            let stderr = try lesson.quick(arguments, status: 1).stderr
            // "threaded バリアントが失敗しました" (lesson 02's threaded variant is four runs: their names, then the words).
            #expect(Lesson.missing(["threaded", "バリアントが失敗しました"] + words, in: stderr) == [], "\(fault): \(stderr)")
            #expect(EnglishSentences.lines(in: stderr) == [], "\(fault): \(stderr)")
        }
    }
}
