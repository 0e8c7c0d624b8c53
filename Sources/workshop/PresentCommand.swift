import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop present NN`: presenter mode for the instructor's screen. Walks lesson NN's demos
/// as its text quotes them, one step a key press.
struct Present: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("Presenter mode: walk a lesson's demos on the big screen, one step a key press."),
        discussion: localized(
            """
            The steps are the lesson text's own demos: every section of Lessons/NN-*.md \
            (Lessons/ja/NN-*.md with --lang ja) that quotes a `swift run lessonNN ...` line in a code \
            block, in order. Each step shows its number in big digits, its title (the section's heading) \
            and its point (the first sentence under that heading; for the first demo, the lesson's idea \
            in one sentence), then every command the section quotes. The next key press runs the \
            lesson's ones, one after the other: the lesson draws its live timeline and table below the \
            step's heading, which stays on the screen, and the presenter ends the step with the \
            section's takeaway (its "Takeaway:" paragraph) in a box, in place of the program's own. A \
            demo that needs a room server (--server) is shown and skipped, saying so. With --lang, the \
            lessons speak that language too. A lesson whose sources changed since it was built (after a \
            git pull) is built first.
            Keys: Enter, Space, n or the right arrow: run the step, then go to the next one; b or the \
            left arrow: back to the previous step; r: run the step again; q: quit. During a run, q or \
            Ctrl-C stops the lesson and stays on the step. Without a terminal on stdin, one line per key \
            (an empty line or n, b, r, q), so a script can drive it.
            The terminal is restored however the presenter ends (q, Ctrl-C, an error, a hang-up).
            """))

    @Argument(help: ArgumentHelp(localized("The lesson, e.g. 03."), valueName: "lesson"))
    var lesson: String

    @Option(help: ArgumentHelp(localized("Start at this step (1 = the first demo)."), valueName: "k"))
    var step = 1

    @Flag(help: ArgumentHelp(localized("Print the steps (title, point, commands, takeaway) and exit.")))
    var list = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            localized("Flags added to every step's command, e.g. --extra \"--rows 4 --latency 0.02\" for short runs."),
            valueName: "flags"))
    var extra: String?

    @OptionGroup var language: LanguageOption

    /// A usage error (exit 64, with the usage line) for an unknown lesson or a step out of range.
    func validate() throws { _ = try resolve() }

    /// The lesson asked for and its demos.
    func resolve() throws -> (Workspace.Lesson, [LessonDemo]) {
        let workspace = Workspace.locate()
        let lessons = workspace.lessons()
        let wanted = lesson.count == 1 ? "0" + lesson : lesson
        guard let chosen = lessons.first(where: { $0.number == wanted }) else {
            throw ValidationError(Text.presentNoLesson(lesson, lessons.map(\.number).joined(separator: ", ")))
        }
        let product = "lesson" + chosen.number
        let demos = LessonText.demos(in: Self.text(of: chosen, in: workspace), product: product)
        guard !demos.isEmpty else { throw ValidationError(Text.presentNoDemos(chosen.file, product)) }
        guard (1...demos.count).contains(step) else { throw ValidationError(Text.presentBadStep(step, demos.count)) }
        return (chosen, demos)
    }

    func run() throws {
        let (chosen, demos) = try resolve()
        let product = "lesson" + chosen.number
        let extra = LessonText.shellWords(self.extra ?? "")
        // The lessons speak the presenter's language when it was asked for (otherwise they read
        // the same locale the presenter did).
        let added = (Language.asked(in: CommandLine.arguments).map { ["--lang", $0.rawValue] } ?? []) + extra
        if list {
            for (index, demo) in demos.enumerated() {
                Style.line(Style.bold("\(index + 1). \(demo.title)"))
                Style.line("   \(demo.point)")
                for command in demo.commands {
                    Style.line(
                        command.product == product
                            ? "   $ " + ([command.text] + added).joined(separator: " ")
                            : Style.dim("   $ " + command.quoted))
                }
                if demo.needsOwnServer { Style.line(Style.dim("   " + Text.presentNeedsServer)) }
                if !demo.takeaway.isEmpty { Style.line("   " + Text.presentTakeaway + ": " + demo.takeaway) }
            }
            return
        }
        let binary = try Self.built(product)
        var session = PresenterSession(
            lesson: chosen, demos: demos, added: added, extra: extra, binary: binary, index: step - 1)
        session.run()
    }

    /// The lesson's text in the language spoken: Lessons/ja/<name> in Japanese when it is there.
    static func text(of lesson: Workspace.Lesson, in workspace: Workspace) -> String {
        let name = URL(fileURLWithPath: lesson.file).lastPathComponent
        let japanese = workspace.path("Lessons/ja/" + name)
        let file =
            Language.current == .ja && FileManager.default.fileExists(atPath: japanese)
            ? japanese : workspace.path(lesson.file)
        return (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// How long building a lesson may take: a cold build on two cores takes minutes (the same
    /// limit as the checks' library build).
    static let buildLimit = 1_800.0

    /// The lesson program next to this one, built first (saying so) when it is not there yet
    /// (`swift run workshop` builds only the workshop) or when a file it is built from changed
    /// since (a `git pull`, an edit).
    static func built(_ product: String) throws -> String {
        let toolchain = Toolchain.current
        let binary = toolchain.binDirectory.appendingPathComponent(product)
        let why: String
        if !FileManager.default.isExecutableFile(atPath: binary.path) {
            why = Text.presentNotBuiltYet(product)
        } else if let changed = ProductFreshness.newerSource(
            than: binary, product: product, binDirectory: toolchain.binDirectory, packageRoot: toolchain.packageRoot)
        {
            why = Text.presentSourcesChanged(changed, product)
        } else {
            return binary.path
        }
        let arguments = ["build", "--product", product, "-c", toolchain.configuration]
        Style.warnLine(Style.dim(why + " " + Text.presentBuilding("swift " + arguments.joined(separator: " "))))
        let started = Date()
        let build = try? Subprocess.run(
            "swift", arguments, currentDirectory: toolchain.packageRoot.path, timeout: buildLimit)
        guard let build, build.succeeded, FileManager.default.isExecutableFile(atPath: binary.path) else {
            // The compiler's last words say why; the first line says how it ended.
            let said = ((build?.stdout ?? "") + (build?.stderr ?? "")).split(separator: "\n").suffix(20)
            let end =
                build?.timedOut == true
                ? Text.presentBuildTimedOut(Int(buildLimit / 60)) : build.map { Text.exitStatus($0.status) } ?? ""
            throw WorkshopFailure(
                ([Text.presentNotBuilt(product, end)] + said.map(String.init)).joined(separator: "\n"))
        }
        ProductFreshness.recordBuild(of: product, startedAt: started, binDirectory: toolchain.binDirectory)
        return binary.path
    }
}
