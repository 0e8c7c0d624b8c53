import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop captures`: for maintainers. Every block of the texts that shows what a program
/// prints is marked with the command that made it (`<!-- capture: swift run lesson03 (ja) -->`,
/// see `Captures`), and every figure a sentence, a quiz or a step quotes from such a block is
/// anchored to it (`<!-- figure: lesson03 · "hangs" #1 -->`, see `Figures`). This runs
/// each command (the built program, in the text's language) and says where a block differs from
/// what it prints now and where a figure or a claim disagrees with its block; with `--update` it
/// writes the blocks, then the figures from them, and the pictures of the same runs.
struct CapturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "captures",
        abstract: localized("For maintainers: check (or write) every captured block of the texts from a real run."),
        discussion: localized(
            """
            A block that shows what a program prints stands under a marker, e.g. \
            <!-- capture: swift run lesson03 --rows 8 (ja) -->: the command and the language it ran \
            in, then rules that keep some of its lines (lines 1-12, from "text", to "text", until \
            "text", frames 3, timeout 300) and the picture its run draws (svg "Lessons/images/NAME.svg"). \
            Each command runs once, as the built program (.build/debug/lesson03 --lang ja), \
            `workshop` in a copy of the exercises as shipped. A figure quoted from a block is \
            followed by an anchor, e.g. 1.79 s<!-- figure: lesson03 · "worst freeze went from" #1 -->, \
            a sentence about what figures mean by a claim, <!-- claim: lesson03 · "hangs" #2 == 0 -->. \
            Without --update nothing changes: a block that differs from its run (numbers and what \
            varies from run to run masked), and a figure or a claim that disagrees with its block, \
            are named by file and line, and the exit status is 1. --update writes every block of a \
            command that differs (all of them with --all) from one run, its picture, then every \
            anchored figure from the blocks. --figures reads the figures against the blocks as \
            they are, running nothing. --list shows the markers without running anything.
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

    @Flag(
        help: ArgumentHelp(
            localized(
                "Only the anchored figures and claims, read against the blocks as they are; run nothing (with --update: write the figures)."
            )))
    var figures = false

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            localized(
                "Only this capture, named as an anchor names it (e.g. \"lesson03 variant threaded\"); repeatable."),
            valueName: "capture"))
    var only: [String] = []

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
        if all && figures { throw ValidationError(localized("--all and --figures exclude each other")) }
    }

    func run() throws {
        let root = Workspace.locate().root
        let everyText = Captures.textPaths(root: root)
        let texts = everyText.filter { path in
            paths.isEmpty || paths.contains { path.hasPrefix(Self.relative($0, to: root)) }
        }
        guard !texts.isEmpty else { throw WorkshopFailure(localized("no text under the paths given")) }
        var contents: [String: String] = [:]
        for path in everyText {
            contents[path] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }
        var blocks: [Captures.Block] = []
        for path in texts { blocks += Captures.blocks(in: contents[path] ?? "", path: path) }
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
        if figures {
            let failed = try writeOrCheckFigures(
                contents: contents, texts: texts, root: root, written: update ? [] : nil)
            if failed || !problems.isEmpty { throw ExitCode(1) }
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
        var drawn: [Captures.Command: URL] = [:]
        var failed = !problems.isEmpty
        let clock = Stopwatch()
        let commands = Captures.commands(of: blocks).filter { entry in
            only.isEmpty
                || only.contains { $0.split(separator: " ").joined(separator: " ") == Figures.name(of: entry.command) }
        }
        guard !commands.isEmpty else {
            throw WorkshopFailure(localized("no capture of that name under the paths given"))
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sakusaku-pictures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (number, (command, timeout, pictures)) in commands.enumerated() {
            Style.warnLine(Style.dim("[\(number + 1)/\(commands.count)] \(command)"))
            var picture: URL?
            if update, !pictures.isEmpty {
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                picture = scratch.appendingPathComponent("\(number).svg")
            }
            let run = runner.run(command, timeout: timeout, picture: picture)
            if let problem = run.problem {
                Style.warnLine("\(command): \(problem)")
                failed = true
            } else {
                outputs[command] = run.lines
                if let picture, FileManager.default.fileExists(atPath: picture.path) { drawn[command] = picture }
            }
        }
        // Which commands print something else than a block of theirs quotes.
        var differing: Set<Captures.Command> = []
        var differingBlocks = 0
        for path in texts {
            for block in Captures.blocks(in: contents[path] ?? "", path: path) {
                guard let (command, rules) = block.capture, let output = outputs[command] else { continue }
                let differences = Captures.differences(block, output: output, rules: rules, choices: choices)
                guard !differences.isEmpty else { continue }
                differingBlocks += 1
                differing.insert(command)
                if !update {
                    for difference in differences.prefix(5) { print(difference.description) }
                    if differences.count > 5 {
                        print(localized(format: "  ... and %d more lines of this block", differences.count - 5))
                    }
                }
            }
        }
        // A run on a busy machine: its figures are the machine's too, and claims may fail on them.
        let busy = commands.map(\.command).filter { command in
            outputs[command].map { choices.saysBusy($0, language: command.language) } ?? false
        }
        if !busy.isEmpty {
            Style.warnLine(
                localized(
                    format:
                        "%d runs say the machine was busy; on a quiet machine, run them again: swift run workshop captures --update --all %@",
                    busy.count, busy.map { "--only \"\(Figures.name(of: $0))\"" }.joined(separator: " ")))
        }
        let seconds = String(format: "%.0f", clock.elapsed)
        let ran =
            commands.count == 1
            ? localized(format: "1 command run in %@ s", seconds)
            : localized(format: "%1$d commands run in %2$@ s", commands.count, seconds)
        if update {
            // A command's blocks are written together, and its picture with them: one run each.
            let stalePictures = Figures.commandsWithStalePictures(
                library: Figures.Library(texts: everyText.map { ($0, contents[$0] ?? "") }), root: root)
            let written = outputs.filter { all || differing.contains($0.key) || stalePictures.contains($0.key) }
            var updated = contents
            for path in everyText {
                let text = Captures.updated(contents[path] ?? "", path: path, outputs: written)
                if text != contents[path] {
                    updated[path] = text
                }
            }
            for (command, _, pictures) in commands where written[command] != nil {
                guard let picture = drawn[command] else { continue }
                for target in pictures {
                    let url = root.appendingPathComponent(target)
                    try? FileManager.default.removeItem(at: url)
                    try FileManager.default.copyItem(at: picture, to: url)
                    print(localized(format: "wrote %@", target))
                }
            }
            let figuresFailed = try writeOrCheckFigures(
                contents: updated, texts: texts, root: root,
                written: everyText.filter { updated[$0] != contents[$0] })
            print(localized(format: "captures: %@.", ran))
            if failed || figuresFailed { throw ExitCode(1) }
            return
        }
        let figuresFailed = try writeOrCheckFigures(contents: contents, texts: texts, root: root, written: nil)
        if differingBlocks > 0 {
            print(
                localized(
                    format:
                        "captures: %1$d blocks differ from their runs (%2$@). `swift run workshop captures --update` writes them.",
                    differingBlocks, ran))
            failed = true
        } else {
            print(localized(format: "captures: every block says what its command prints (%@).", ran))
        }
        if failed || figuresFailed { throw ExitCode(1) }
    }

    /// Reads every anchored figure and claim of `texts` against the blocks of `contents` (every
    /// text, by path). With `written` (the update: the texts whose blocks it wrote, possibly
    /// none), first writes every figure that disagrees, in any text, and writes each changed
    /// text; without it, only says. Prints what still disagrees; returns whether anything does.
    func writeOrCheckFigures(contents: [String: String], texts: [String], root: URL, written: [String]?) throws
        -> Bool
    {
        var contents = contents
        let ordered = contents.keys.sorted()
        if let written {
            let library = Figures.Library(texts: ordered.map { ($0, contents[$0] ?? "") })
            var changed = Set(written)
            for path in ordered {
                let (text, count) = Figures.updated(contents[path] ?? "", path: path, library: library)
                guard count > 0 else { continue }
                contents[path] = text
                changed.insert(path)
                print(localized(format: "%1$@: %2$d figures written from their captures", path, count))
            }
            for path in changed.sorted() {
                try Data((contents[path] ?? "").utf8).write(to: root.appendingPathComponent(path))
                print(localized(format: "wrote %@", path))
            }
        }
        let library = Figures.Library(texts: ordered.map { ($0, contents[$0] ?? "") })
        let (readings, problems) = Figures.readings(texts: texts.map { ($0, contents[$0] ?? "") }, library: library)
        let pictures = Figures.pictureProblems(library: library, root: root).filter { problem in
            texts.contains(problem.path)
        }
        for problem in problems + pictures { print(problem.description) }
        let figureCount = readings.filter { $0.anchor.kind == .figure }.count
        let claimCount = readings.count - figureCount
        if problems.isEmpty && pictures.isEmpty {
            print(
                localized(
                    format: "figures: %1$d figures and %2$d claims agree with their captures.", figureCount, claimCount)
            )
            return false
        }
        print(
            localized(
                format:
                    "figures: %1$d of %2$d anchors disagree with their captures, %3$d pictures with their blocks. `swift run workshop captures --update --figures` writes the figures; a claim is reworded by hand.",
                problems.count, readings.count, pictures.count))
        return true
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
                if let command = marker.command {
                    for picture in marker.pictures where Captures.language(ofPicture: picture) != command.language {
                        problems.append(
                            localized(
                                format: "%1$@: the picture of a run in %2$@ is named NAME%3$@.svg, not %4$@",
                                block.location, command.language.rawValue, command.language == .ja ? "-ja" : "",
                                picture))
                    }
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
