import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// The slow part of the lesson contract (`LessonContractTests`): every `--variant` choice, the
/// Japanese locale and the contract's other Japanese runs, `--json` in Japanese, and for a
/// network lesson a silent server and every fault. The slow tier (its name ends in SlowTests):
/// CI runs it by name; one test at a time, and with the machine's turn (`.machineTurn`) for the
/// whole suite, as its bounds in seconds and its worst freezes want the cores.
@Suite(.serialized, .machineTurn) struct LessonContractSlowTests {
    @Test("--variant makes the runs of the variants it names, in order", arguments: Lesson.all)
    func variantChoices(_ name: String) throws {
        let lesson = try Lesson(name)
        for choice in VariantChoice.allCases {
            let document = try lesson.document(["--variant", choice.rawValue])
            #expect(document.variantNames == lesson.runs(choice), "--variant \(choice.rawValue)")
        }
    }

    @Test("a Japanese locale speaks Japanese: the run, --help and a bad flag", arguments: Lesson.all)
    func japaneseLocale(_ name: String) throws {
        let lesson = try Lesson(name)
        let first = try #require(lesson.contract.japanese.first)
        let output = try lesson.quick(first.arguments, locale: Lesson.japaneseLocale).stdout
        #expect(Lesson.missing(first.phrases, in: output) == [], "\(output)")
        #expect(lesson.englishSentences(output) == [])
        let help = try lesson.run(["--help"], locale: Lesson.japaneseLocale)
        #expect(Lesson.missing(lesson.contract.japaneseHelp, in: help.stdout) == [], "\(help.stdout)")
        for flag in lesson.contract.flags {
            guard let range = flag.range.flatMap({ FlagRange<Double>(flag.name, $0) }), let value = flag.refused.first,
                let number = Double(value)
            else { continue }
            let refused = try lesson.run([flag.name, value], locale: Lesson.japaneseLocale)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains(range.refusal(number, in: .ja)), "\(refused.stderr)")
        }
    }

    @Test("each variant alone, the contract's other runs and a cancel speak Japanese", arguments: Lesson.all)
    func everyJapaneseRun(_ name: String) throws {
        let lesson = try Lesson(name)
        for run in lesson.contract.japanese.dropFirst() {
            let output = try lesson.quick(run.arguments + ["--lang", "ja"]).stdout
            #expect(Lesson.missing(run.phrases, in: output) == [], "\(run.arguments): \(output)")
            #expect(lesson.englishSentences(output) == [], "\(run.arguments)")
        }
        // One variant alone: the takeaway has sentences of its own then.
        for variant in Variant.allCases {
            let output = try lesson.quick(["--variant", variant.rawValue, "--lang", "ja"]).stdout
            #expect(lesson.englishSentences(output) == [], "--variant \(variant.rawValue)")
        }
        let cancel = lesson.contract.cancel
        let at = try #require(cancel.lastIndex(of: "--cancel-after").map { cancel[$0 + 1] })
        let output = try lesson.quick(cancel + ["--lang", "ja"]).stdout
        let first = try #require(lesson.contract.runs.first?.name)
        #expect(Lesson.missing(["\(at) 秒でキャンセル", "キャンセル後: ", "キャンセル: \(first) は"], in: output) == [], "\(output)")
        #expect(lesson.englishSentences(output) == [])
    }

    @Test(
        "--json stays English in Japanese: the same keys, runs and figures, an English takeaway", arguments: Lesson.all)
    func jsonStaysEnglish(_ name: String) throws {
        let lesson = try Lesson(name)
        let problems = try jsonStaysEnglishProblems(name, lesson.contract.quick + ["--json"])
        #expect(problems == [])
    }

    @Test(
        "a silent server ends every variant within about twice the timeout, the main thread free", arguments: Lesson.all
    )
    func silentServer(_ name: String) throws {
        let lesson = try Lesson(name)
        guard let network = lesson.contract.network else { return }
        let problems = try lesson.binary.silentServerProblems(
            lesson.contract.quick, oneCause: network.oneCause, path: network.firstPath)
        #expect(problems == [])
    }

    @Test("every fault ends the run with exit status 1 and one line naming its cause", arguments: Lesson.all)
    func everyFault(_ name: String) throws {
        let lesson = try Lesson(name)
        guard let network = lesson.contract.network else { return }
        let problems = try lesson.binary.faultProblems(
            causes: network.causes, lesson.contract.quick, oneCause: network.oneCause,
            path: network.faultsNamePath ? network.firstPath : nil)
        #expect(problems == [])
    }
}
