import ExerciseChecks
import Foundation
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopTools

/// Every `swift run ...` line quoted in Lessons/*.md must run as written: the product exists
/// (or is still being written: then the line is skipped, not failed), every flag it uses is
/// one the command declares, options get a value, flags do not, and the values parse
/// (`<the line> --help` exits 0: the parser converts every value before it shows help).
struct LessonCommandsTests {
    struct Command: CustomStringConvertible {
        var file: String
        var line: Int
        var product: String
        var arguments: [String]
        var description: String { "\(file):\(line): swift run \(product) \(arguments.joined(separator: " "))" }
    }

    /// The quoted command lines of the texts in `folder` (Lessons, or Lessons/ja for the Japanese
    /// texts): in fenced code blocks, starting with `swift run` (or `$ swift run`).
    static func commands(in folder: String = "Lessons") throws -> [Command] {
        let directory = ExerciseRoot.builtFrom.appendingPathComponent(folder)
        var commands: [Command] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        where name.hasSuffix(".md") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            commands += LessonText.quotedCommands(in: text).map { quoted in
                Command(
                    file: folder + "/" + name, line: quoted.line, product: quoted.product, arguments: quoted.arguments)
            }
        }
        return commands
    }

    @Test func theLessonsQuoteCommands() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 10, "\(commands)")
        #expect(commands.contains { $0.product == "workshop" })
    }

    /// `--help` of each distinct command line of the English and the Japanese texts (310 lines, 112
    /// distinct), run once for both tests that check them: the first test to ask runs them all,
    /// the other waits for the same `static let` (each run is a process; 310 took 18 s).
    static let helpRuns: [String: Result<Subprocess.Outcome, any Error>] = {
        let all = ((try? commands()) ?? []) + ((try? commands(in: "Lessons/ja")) ?? [])
        var distinct: [String: Command] = [:]
        for command in all {
            let binary = WorkshopBinary.directory.appendingPathComponent(command.product).path
            guard FileManager.default.isExecutableFile(atPath: binary) else { continue }
            distinct[command.product + "\u{0}" + command.arguments.joined(separator: "\u{0}")] = command
        }
        // Four at a time: each run mostly waits for a process to start and end.
        let (keys, lines) = (Array(distinct.keys), distinct)
        let runs = Locked<[String: Result<Subprocess.Outcome, any Error>]>([:])  // filled from 4 threads
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for key in stride(from: lane, to: keys.count, by: 4).map({ keys[$0] }) {
                let command = lines[key]!
                let binary = WorkshopBinary.directory.appendingPathComponent(command.product).path
                let run = Result { try Subprocess.run(binary, command.arguments + ["--help"], timeout: 60) }
                runs.withLock { $0[key] = run }
            }
        }
        return runs.current
    }()

    /// Runs each command with `--help` and checks its flags against the product's own description
    /// (shared with LanguageSyncTests, which checks the Japanese texts' lines the same way).
    static func expectEveryCommandParses(_ commands: [Command]) async throws {
        var checked = 0
        var skipped: Set<String> = []
        var descriptions: [String: Subprocess.Outcome] = [:]  // one --experimental-dump-help per product
        for command in commands {
            let binary = WorkshopBinary.directory.appendingPathComponent(command.product).path
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                skipped.insert(command.product)  // a lesson still being written
                continue
            }
            let help =
                try helpRuns[command.product + "\u{0}" + command.arguments.joined(separator: "\u{0}")]?.get()
                ?? Subprocess.run(binary, command.arguments + ["--help"], timeout: 60)
            #expect(help.status == 0 && !help.signaled, "\(command): \(help.stderr)")
            if descriptions[binary] == nil {
                descriptions[binary] = try await Subprocess.run(
                    binary, ["--experimental-dump-help"], timeout: 60, in: .shared)
            }
            for problem in Self.undeclaredArguments(command, description: descriptions[binary]!) {
                Issue.record("\(command): \(problem)")
            }
            checked += 1
        }
        print("swift run lines checked: \(checked); skipped (product not built yet): \(skipped.sorted())")
        #expect(checked > 0)
    }

    /// Flags in `command` that the product (or its subcommand) does not declare, and options without a value.
    static func undeclaredArguments(_ command: Command, description dump: Subprocess.Outcome) -> [String] {
        guard dump.succeeded,
            let json = try? JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any],
            var node = json["command"] as? [String: Any]
        else {
            return ["--experimental-dump-help gave no command description"]
        }
        var arguments = command.arguments[...]
        // Descend into subcommands named by the first words ("workshop check NN").
        while let first = arguments.first,
            let sub = (node["subcommands"] as? [[String: Any]])?.first(where: { $0["commandName"] as? String == first })
        {
            node = sub
            arguments = arguments.dropFirst()
        }
        var kinds: [String: String] = ["--help": "flag", "-h": "flag"]
        for argument in node["arguments"] as? [[String: Any]] ?? [] {
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String, let kind = name["kind"] as? String else { continue }
                kinds[(kind == "short" ? "-" : "--") + text] = argument["kind"] as? String
            }
        }
        var problems: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-"), Double(word) == nil else { continue }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            switch kinds[name] {
            case nil: problems.append("\(name) is not a flag of this command")
            case "option" where !word.contains("="):
                if index >= arguments.endIndex { problems.append("\(name) needs a value") } else { index += 1 }
            default: break
            }
        }
        return problems
    }
}

/// The slow tier (`swift test --filter SlowTests`): every quoted line of the English texts runs.
struct LessonCommandsSlowTests {
    /// The slow tier: a `--help` run per distinct line (CI runs it).
    @Test func everyQuotedSwiftRunLineParsesWithTheCurrentFlags() async throws {
        try await LessonCommandsTests.expectEveryCommandParses(LessonCommandsTests.commands())
    }
}

/// The checker itself: a line with an unknown flag or an option without its value is caught.
struct LessonCommandCheckerTests {
    @Test func shellWordsHandleQuotesAndComments() throws {
        #expect(
            LessonText.shellWords("swift run lesson03 --rows 10   # a comment") == [
                "swift", "run", "lesson03", "--rows", "10",
            ])
        #expect(
            LessonText.shellWords("swift run x --server 'http://h:1/a b' && echo") == [
                "swift", "run", "x", "--server", "http://h:1/a b",
            ])
    }

    @Test func unknownFlagsAndMissingValuesAreCaught() async throws {
        let dump = try await Subprocess.run(WorkshopBinary.path, ["--experimental-dump-help"], timeout: 60, in: .shared)
        func problems(_ arguments: [String]) -> [String] {
            LessonCommandsTests.undeclaredArguments(
                .init(file: "t", line: 1, product: "workshop", arguments: arguments), description: dump)
        }
        #expect(problems(["watch", "--max-seconds", "5", "--once"]).isEmpty)
        #expect(problems(["check", Subject.all[0].id, "--no-build"]).isEmpty)
        #expect(problems(["watch", "--no-such-flag"]) == ["--no-such-flag is not a flag of this command"])
        #expect(problems(["watch", "--max-seconds"]) == ["--max-seconds needs a value"])
        #expect(problems(["check", "--once"]) == ["--once is not a flag of this command"])
    }
}
