import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop` / `workshop list`: every lesson and exercise, their status, and what to do next.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Show every lesson and exercise with its status (not started, failing, done) and the next thing to do.")

    /// Anything else typed after `workshop` (ArgumentParser tries the commands' names first).
    @Argument(help: .hidden) var unknown: [String] = []

    func run() throws {
        if let word = unknown.first { throw Workshop.unknownCommand(word) }
        let workspace = Workspace.locate()
        let progress = Progress.load(workspace.progressFile)
        let states = workspace.states(progress: progress)
        let lessons = workspace.lessons()
        let current = workspace.current(progress: progress)

        Style.line(Style.bold("Sakusaku Workshop") + "  " + Style.dim(workspace.root.path))
        Style.line(Style.progressBar(done: states.filter { $0.status == .done }.count, of: states.count))
        Style.line()

        // One row per lesson (with its first exercise, if it has one), then the other exercises: a
        // lesson's second one ("03a", under its lesson) and those of no lesson.
        var rows: [(id: String, lesson: String, state: Workspace.State?)] = lessons.map { lesson in
            (lesson.number, lesson.title, states.first { $0.exercise.lesson == lesson.number })
        }
        for state in states where !rows.contains(where: { $0.state?.exercise.id == state.exercise.id }) {
            let lesson = lessons.first { $0.number == state.exercise.lesson }
            rows.append((state.exercise.id, lesson?.title ?? "(no lesson: belongs to all of them)", state))
        }
        rows.sort { $0.id < $1.id }
        let lessonWidth = min(46, rows.map { terminalWidth($0.lesson) }.max() ?? 10)
        let idWidth = rows.map(\.id.count).max() ?? 2
        Style.line(
            Style.dim(
                "  " + Style.pad("id", idWidth) + "  " + Style.pad("lesson", lessonWidth) + "  "
                    + Style.pad("exercise", 34) + "  status"))
        for row in rows {
            let lesson = truncate(row.lesson, toWidth: lessonWidth)
            let id = Style.pad(row.id, idWidth)
            guard let state = row.state else {
                Style.line("  \(id)  \(Style.pad(lesson, lessonWidth))  \(Style.dim("(no exercise)"))")
                continue
            }
            let marker = state.exercise.id == current?.id ? Style.bold(">") : " "
            let name = truncate(state.exercise.title, toWidth: 34)
            let note = state.note.map { Style.dim(" (\($0))") } ?? ""
            Style.line(
                "\(marker) \(id)  \(Style.pad(lesson, lessonWidth))  \(Style.pad(name, 34))  "
                    + Style.status(state.status) + note)
        }
        Style.line()
        if current != nil { Style.line(Style.dim("> is the current exercise: `swift run workshop check` checks it.")) }
        Style.line(Self.next(current.map { workspace.state($0, progress: progress) }, workspace: workspace, progress))
    }

    /// One line: what to do now.
    static func next(_ state: Workspace.State?, workspace: Workspace? = nil, _ progress: Progress = Progress())
        -> String
    {
        guard let state else {
            return
                "Next: nothing left. Every exercise passes its checks. Well done! (Try `swift test --sanitize=thread`.)"
        }
        let exercise = state.exercise
        switch state.status {
        case .notStarted:
            return
                "Next: exercise \(exercise.id), \(exercise.title). Read \(exercise.directory)/README.md, "
                + "edit \(exercise.paths.joined(separator: ", ")), then `swift run workshop check \(exercise.id)` "
                + "(or `swift run workshop watch \(exercise.id)`)."
        case .failing:
            return
                "Next: keep going with exercise \(exercise.id) (\(exercise.paths.joined(separator: ", "))): "
                + "`swift run workshop check \(exercise.id)`; stuck? `swift run workshop hint \(exercise.id)`."
        case .done:
            guard let workspace, let following = workspace.next(after: exercise, progress: progress) else {
                return next(nil)
            }
            return
                "Exercise \(exercise.id) is done. Next: exercise \(following.id), \(following.title): "
                + "`swift run workshop start \(following.id)`."
        }
    }
}
