import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop` / `workshop list`: every lesson and exercise, their status, and what to do next.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every lesson and exercise with its status (not started, failing, done) and the next thing to do.")

    func run() throws {
        let workspace = Workspace.locate()
        let progress = Progress.load(workspace.progressFile)
        let exercises = workspace.exercises(progress: progress)
        let lessons = workspace.lessons()

        Style.line(Style.bold("Sakusaku Workshop") + "  " + Style.dim(workspace.root.path))
        Style.line(Style.progressBar(done: exercises.filter { $0.status == .done }.count, of: exercises.count))
        Style.line()

        // One row per lesson (with its exercise, if it has one), then the exercises of no lesson.
        var rows: [(id: String, lesson: String, exercise: Workspace.Exercise?)] = lessons.map { lesson in
            (lesson.number, lesson.title, exercises.first { $0.suite.id == lesson.number })
        }
        for exercise in exercises where !lessons.contains(where: { $0.number == exercise.suite.id }) {
            rows.append((exercise.suite.id, "(no lesson: belongs to all of them)", exercise))
        }
        rows.sort { $0.id < $1.id }
        let lessonWidth = min(46, rows.map { terminalWidth($0.lesson) }.max() ?? 10)
        Style.line(Style.dim("id  " + Style.pad("lesson", lessonWidth) + "  " + Style.pad("exercise", 34) + "  status"))
        for row in rows {
            let lesson = truncate(row.lesson, toWidth: lessonWidth)
            guard let exercise = row.exercise else {
                Style.line("\(row.id)  \(Style.pad(lesson, lessonWidth))  \(Style.dim("(no exercise)"))")
                continue
            }
            let name = truncate(exercise.suite.title, toWidth: 34)
            let note = exercise.note.map { Style.dim(" (\($0))") } ?? ""
            Style.line("\(row.id)  \(Style.pad(lesson, lessonWidth))  \(Style.pad(name, 34))  \(Style.status(exercise.status))\(note)")
        }
        Style.line()
        Style.line(Self.next(workspace.current(progress: progress)))
    }

    /// One line: what to do now.
    static func next(_ exercise: Workspace.Exercise?) -> String {
        guard let exercise else {
            return "Next: nothing left. Every exercise passes its checks. Well done! (Try `swift test --sanitize=thread`.)"
        }
        let suite = exercise.suite
        switch exercise.status {
        case .notStarted:
            return "Next: exercise \(suite.id), \(suite.title). Read \(suite.directory)/README.md, edit \(suite.exerciseFile), "
                + "then `swift run workshop check \(suite.id)` (or `swift run workshop watch`)."
        default:
            return "Next: keep going with exercise \(suite.id) (\(suite.exerciseFile)): `swift run workshop check \(suite.id)`; "
                + "stuck? `swift run workshop hint \(suite.id)`."
        }
    }
}
