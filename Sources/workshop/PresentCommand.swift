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
            The steps are the lesson text's own demo commands: every `swift run lessonNN ...` line in a \
            code block of Lessons/NN-*.md (Lessons/ja/NN-*.md with --lang ja), in order. Each step shows \
            its number in big digits, its title (the heading above the command) and its point (the first \
            sentence under that heading; for the first demo, the lesson's idea in one sentence), then the \
            command. The next key press runs it: the lesson draws its live timeline and table, and the \
            presenter ends the step with the lesson's takeaway in a box. A demo that needs a room server \
            (--server) is shown and skipped, saying so.
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

    @Flag(help: ArgumentHelp(localized("Print the steps (title, point, command) and exit.")))
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
        let added = LessonText.shellWords(extra ?? "")
        if list {
            for (index, demo) in demos.enumerated() {
                Style.line(Style.bold("\(index + 1). \(demo.title)"))
                Style.line("   \(demo.point)")
                Style.line("   $ " + ([demo.command] + added).joined(separator: " "))
                if demo.needsOwnServer { Style.line(Style.dim("   " + Text.presentNeedsServer)) }
            }
            return
        }
        let binary = try Self.built(product)
        var session = PresenterSession(
            lesson: chosen, demos: demos, extra: added, binary: binary, index: step - 1)
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

    /// The lesson program next to this one; built first when it is not there yet (`swift run
    /// workshop` builds only the workshop).
    static func built(_ product: String) throws -> String {
        let toolchain = Toolchain.current
        let binary = toolchain.binDirectory.appendingPathComponent(product).path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        let arguments = ["build", "--product", product, "-c", toolchain.configuration]
        Style.warnLine(Style.dim(Text.presentBuilding("swift " + arguments.joined(separator: " "))))
        // The same limit as the checks' library build: a cold build on two cores takes minutes.
        let build = try? Subprocess.run(
            "swift", arguments, currentDirectory: toolchain.packageRoot.path, timeout: 1_800)
        guard build?.succeeded == true, FileManager.default.isExecutableFile(atPath: binary) else {
            throw WorkshopFailure(Text.presentNotBuilt(product))
        }
        return binary
    }
}
