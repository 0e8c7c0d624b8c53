import ExerciseChecks
import Foundation
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopTools

/// Under a Japanese locale (or `--lang ja`), what `workshop` itself says holds no English
/// sentence: `list`, `hint`, `check` on a file as shipped, `verify`, `--help` of the CLI and of
/// `check`, and the command line's errors. Counted with `EnglishSentences.lines(in:)`.
///
/// Two kinds of line are left out of the count, each for a reason:
/// - a check's own line and its wanted/got values (`  FAIL  <check name>`, `期待:`, `結果:` and
///   the got value's following lines, and verify's "FAILS: <check>: <got>"): the checks'
///   names and values come from Sources/ExerciseChecks, whose Japanese is another piece of work;
///   this test is about the words `workshop` puts around them;
/// - ArgumentParser's own words in `--help` and errors ("Show help information.", "See
///   'workshop help <subcommand>' for detailed help."): the parser has no Japanese of its own.
/// And commands are taken out of the lines before counting ("swift run workshop hint NN",
/// anything in backquotes): they are what the learner types, the same in every language.
///
/// What WorkshopJapaneseOutputTests and WorkshopJapaneseOutputSlowTests (the slow tier) share.
protocol WorkshopJapaneseOutputSuite: WorkspaceSuite {}

/// The two ways to ask for Japanese: the locale, and `--lang ja` with an English locale.
enum Asking: CaseIterable {
    case locale, flag

    var changes: [String: String?] { self == .locale ? ["LANG": "ja_JP.UTF-8"] : [:] }
    func arguments(_ arguments: [String]) -> [String] {
        self == .locale ? arguments : arguments + ["--lang", "ja"]
    }
}

extension WorkshopJapaneseOutputSuite {
    func run(_ arguments: [String], _ asking: Asking) async throws -> Subprocess.Outcome {
        try await run(asking.arguments(arguments), asking.changes)
    }

    /// The lines of `output` with an English sentence, less those of the checks and of ArgumentParser (see above).
    static func english(in output: String) -> [String] {
        var inGot = false
        let ours = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
            // A got value's following lines are indented under it (16 spaces).
            if inGot && line.hasPrefix(String(repeating: " ", count: 16)) { return false }
            inGot = line.hasPrefix("        結果:")
            let checkLine = ["  ok    ", "  FAIL  ", "  --    "].contains { line.hasPrefix($0) }
            let wantedOrGot = line.hasPrefix("        期待:") || inGot
            let verifyFailure = line.contains("失敗: ")  // "FAILS: <check>: <got>" in Japanese
            let parser = line.contains("Show help information.") || line.hasPrefix("  See 'workshop ")
            return !(checkLine || wantedOrGot || verifyFailure || parser)
        }
        let withoutCommands = ours.map { line in
            line.replacingOccurrences(of: "`[^`]*`", with: "`…`", options: .regularExpression)
                .replacingOccurrences(
                    of: "swift (run|build|test)( [A-Za-z0-9_./=:-]+)*", with: "…", options: .regularExpression)
        }
        return EnglishSentences.lines(in: withoutCommands.joined(separator: "\n"))
    }
}

@Suite struct WorkshopJapaneseOutputTests: WorkshopJapaneseOutputSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    @Test func listHintCheckAndHelpSpeakJapanese() async throws {
        let exercise = Subject.pure
        for asking in Asking.allCases {
            let list = try await run(["list"], asking)
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("未着手"), "\(asking): \(list.stdout)")
            #expect(Self.english(in: list.stdout + "\n" + list.stderr) == [], "\(asking): list")

            let hint = try await run(["hint", exercise.id], asking)
            #expect(hint.status == 0, "\(hint.stderr)")
            #expect(hint.stdout.hasPrefix("演習 \(exercise.id) のヒント: "), "\(asking): \(hint.stdout)")
            #expect(Self.english(in: hint.stdout + "\n" + hint.stderr) == [], "\(asking): hint")

            let check = try await run(["check", exercise.id], asking)
            #expect(check.status == 1, "the file as shipped fails: \(check.stdout)")
            #expect(check.stdout.contains("期待:"), "\(asking): \(check.stdout)")
            #expect(check.stdout.hasSuffix("件のチェックが失敗\n"), "\(asking): \(check.stdout)")
            #expect(Self.english(in: check.stdout + "\n" + check.stderr) == [], "\(asking): check")

            for command in [["--help"], ["check", "--help"], ["verify", "--help"], ["watch", "--help"]] {
                let help = try await run(command, asking)
                #expect(help.status == 0, "\(help.stderr)")
                #expect(help.stdout.contains("OVERVIEW: "), "\(help.stdout)")
                #expect(Self.english(in: help.stdout) == [], "\(asking): \(command.joined(separator: " "))")
            }
        }
        // The English stays English, and the count sees it (so an empty count above means something).
        let english = try await WorkshopBinary.run(["check", "--help"], root: workspace.root)
        #expect(english.stdout.contains("Run an exercise's checks on your file"), "\(english.stdout)")
        #expect(!(Self.english(in: english.stdout).isEmpty), "\(english.stdout)")
        let englishCheck = try await WorkshopBinary.run(["check", exercise.id], root: workspace.root)
        #expect(
            Self.english(in: englishCheck.stdout).contains("Read the first FAIL above, change your file, check again."),
            "\(englishCheck.stdout)")
    }

    @Test func theCommandLinesErrorsSpeakJapanese() async throws {
        for asking in Asking.allCases {
            let unknown = try await run(["check", "99x"], asking)
            #expect(unknown.status == 64)
            #expect(unknown.stderr.contains("演習 \"99x\" はありません。演習は "), "\(asking): \(unknown.stderr)")

            let flag = try await run(["verify", "--repeat", "0"], asking)
            #expect(flag.status == 64)
            #expect(flag.stderr.contains("--repeat は 1 から 100 の間で指定してください"), "\(asking): \(flag.stderr)")

            let command = try await run(["chek"], asking)
            #expect(command.status == 64)
            #expect(command.stderr.contains("\"chek\" というコマンドはありません"), "\(command.stderr)")
            #expect(Self.english(in: command.stdout + "\n" + command.stderr) == [], "\(asking): an unknown command")
        }
    }
}

/// The slow tier (`swift test --filter SlowTests`).
@Suite struct WorkshopJapaneseOutputSlowTests: WorkshopJapaneseOutputSuite {
    let workspace: TestWorkspace

    init() throws { workspace = try TestWorkspace() }

    /// `verify` of one exercise (quick: its checks need no network or thread), both ways of asking.
    @Test func verifyOfOneExerciseSpeaksJapanese() async throws {
        // verify's words, twice: the slow tier.
        let exercise = Subject.pure
        for asking in Asking.allCases {
            let verify = try await run(["verify", exercise.id], asking)
            #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
            #expect(verify.stdout.contains("verify: 演習 \(exercise.id) は未解答で配布され、解答例は合格します"), "\(verify.stdout)")
            #expect(Self.english(in: verify.stdout + "\n" + verify.stderr) == [], "\(asking): verify")
        }
    }
}
