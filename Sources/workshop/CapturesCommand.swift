import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop captures`: for maintainers. Every block of the texts that shows what a program
/// prints is marked with the command that made it (`<!-- capture: swift run lesson03 (ja) -->`,
/// see `Captures`); this runs each command (the built program, in the text's language) and
/// says where a block differs from what it prints now, or with `--update` writes it.
struct CapturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "captures",
        abstract: localized("For maintainers: check (or write) every captured block of the texts from a real run."),
        discussion: localized(
            """
            A block that shows what a program prints stands under a marker, e.g. \
            <!-- capture: swift run lesson03 --rows 8 (ja) -->: the command and the language it ran \
            in, then rules that keep some of its lines (lines 1-12, from "text", to "text", until \
            "text", frames 3, timeout 300). Each command runs once, as the built program \
            (.build/debug/lesson03 --lang ja), `workshop` in a copy of the exercises as shipped. \
            Without --update nothing changes: a block that differs from its run (numbers and what \
            varies from run to run masked) is named by file and line, and the exit status is 1. \
            --list shows the markers without running anything.
            """))

    @Argument(
        help: ArgumentHelp(
            localized(
                "Only the texts under these paths, e.g. Lessons/ja or Exercises/NN-name (default: all)."),
            valueName: "path"))
    var paths: [String] = []

    @Flag(help: ArgumentHelp(localized("Write each block that differs from its run.")))
    var update = false

    @Flag(help: ArgumentHelp(localized("With --update: write every block, even one that agrees with its run.")))
    var all = false

    @Flag(help: ArgumentHelp(localized("Change nothing; exit 1 if a block differs from its run (the default).")))
    var check = false

    @Flag(help: ArgumentHelp(localized("List the markers and the commands they name; run nothing.")))
    var list = false

    @Flag(
        name: .customLong("no-build"),
        help: ArgumentHelp(localized("Do not run `swift build` first: use the programs as they are built.")))
    var noBuild = false

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if update && check { throw ValidationError(localized("--update and --check exclude each other")) }
        if all && !update { throw ValidationError(localized("--all goes with --update")) }
    }

    func run() throws {
        let root = Workspace.locate().root
        let texts = Captures.textPaths(root: root).filter { path in
            paths.isEmpty || paths.contains { path.hasPrefix(Self.relative($0, to: root)) }
        }
        guard !texts.isEmpty else { throw WorkshopFailure(localized("no text under the paths given")) }
        var blocks: [Captures.Block] = []
        for path in texts {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            blocks += Captures.blocks(in: text, path: path)
        }
        let problems = Self.problems(blocks)
        for problem in problems { Style.warnLine(problem) }
        if list {
            for block in blocks {
                guard case .success(let marker) = block.marker else { continue }
                let what = marker.command.map { "\($0)" + marker.rules.map { "; \($0)" }.joined() } ?? marker.note
                print("\(block.location)  \(marker.kind.rawValue): \(what)")
            }
            if !problems.isEmpty { throw ExitCode(1) }
            return
        }

        let toolchain = Toolchain.current
        if !noBuild, ProcessInfo.processInfo.environment[SupportLibrary.builtVariable] != "1" {
            try build(toolchain)
        }
        let runner = Captures.Runner(
            binDirectory: toolchain.binDirectory, root: root, environment: [SupportLibrary.builtVariable: "1"])
        let choices = Captures.Choices(root: root)
        var outputs: [Captures.Command: [String]] = [:]
        var failed = !problems.isEmpty
        let clock = Stopwatch()
        let commands = Captures.commands(of: blocks)
        for (number, (command, timeout)) in commands.enumerated() {
            Style.warnLine(Style.dim("[\(number + 1)/\(commands.count)] \(command)"))
            let run = runner.run(command, timeout: timeout)
            if let problem = run.problem {
                Style.warnLine("\(command): \(problem)")
                failed = true
            } else {
                outputs[command] = run.lines
            }
        }
        var differing = 0
        for path in texts {
            let url = root.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            var differs = false
            for block in Captures.blocks(in: text, path: path) {
                guard let (command, rules) = block.capture, let output = outputs[command] else { continue }
                let differences = Captures.differences(block, output: output, rules: rules, choices: choices)
                guard !differences.isEmpty else { continue }
                differing += 1
                differs = true
                if !update {
                    for difference in differences.prefix(5) { print(difference.description) }
                    if differences.count > 5 {
                        print(localized(format: "  ... and %d more lines of this block", differences.count - 5))
                    }
                }
            }
            guard update, differs || all else { continue }
            let written = Captures.updated(
                text, path: path, outputs: outputs, choices: choices, onlyDiffering: !all)
            if written != text {
                try Data(written.utf8).write(to: url)
                print(localized(format: "wrote %@", path))
            }
        }
        let seconds = String(format: "%.0f", clock.elapsed)
        let ran =
            commands.count == 1
            ? localized(format: "1 command run in %@ s", seconds)
            : localized(format: "%1$d commands run in %2$@ s", commands.count, seconds)
        if update {
            print(localized(format: "captures: %@.", ran))
        } else if differing > 0 {
            print(
                localized(
                    format:
                        "captures: %1$d blocks differ from their runs (%2$@). `swift run workshop captures --update` writes them.",
                    differing, ran))
            failed = true
        } else {
            print(localized(format: "captures: every block says what its command prints (%@).", ran))
        }
        if failed { throw ExitCode(1) }
    }

    /// What is wrong with the markers of `blocks`, one sentence each: a marker that does not
    /// parse, a capture in the other language than its text's, a block that looks like a
    /// program's output without a marker.
    static func problems(_ blocks: [Captures.Block]) -> [String] {
        var problems: [String] = []
        for block in blocks {
            switch block.marker {
            case .failure(let error)?:
                problems.append(
                    localized(format: "%1$@: the marker does not parse: %2$@", block.location, error.description))
            case .success(let marker)?:
                if let command = marker.command, command.language != block.language {
                    problems.append(
                        localized(
                            format: "%1$@: a capture in a text in %2$@ must be a run in %2$@, not %3$@",
                            block.location, block.language.rawValue, command.language.rawValue))
                }
            case nil:
                if Captures.looksLikeOutput(block) {
                    problems.append(
                        localized(
                            format:
                                "%@: this block looks like a program's output but has no marker (capture, illustration or quote)",
                            block.location))
                }
            }
        }
        return problems
    }

    /// `path` as given (relative to the current folder, or absolute) relative to the package root.
    static func relative(_ path: String, to root: URL) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let base = root.standardizedFileURL.path + "/"
        if absolute.hasPrefix(base) { return String(absolute.dropFirst(base.count)) }
        return absolute == root.standardizedFileURL.path ? "" : path
    }

    /// `swift build`: every program a capture runs, and the checks' library, as they are now.
    func build(_ toolchain: Toolchain) throws {
        var arguments = ["build", "-c", toolchain.configuration]
        if toolchain.threadSanitizer { arguments.append("--sanitize=thread") }
        Style.warnLine(Style.dim("swift \(arguments.joined(separator: " "))"))
        let outcome = try Subprocess.run(
            "swift", arguments, currentDirectory: toolchain.packageRoot.path, timeout: 1_800)
        guard outcome.succeeded else {
            let errors = (outcome.stdout + "\n" + outcome.stderr).split(separator: "\n")
                .filter { $0.contains("error:") }.prefix(5).joined(separator: "\n")
            throw WorkshopFailure(
                localized(format: "swift build failed (%@)", outcome.describeEnd(timeout: 1_800))
                    + (errors.isEmpty ? "" : "\n" + errors))
        }
    }
}
