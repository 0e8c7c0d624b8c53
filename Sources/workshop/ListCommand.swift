import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop` / `workshop list`: every lesson and exercise, their status, and what to do next.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Show every lesson and exercise with its status (not started, failing, done) and the next thing to do."))

    @Flag(help: ArgumentHelp(localized("Print one JSON document for tools instead: every exercise with its state.")))
    var json = false

    @OptionGroup var editor: EditOptions
    @OptionGroup var language: LanguageOption

    /// Anything else typed after `workshop` (ArgumentParser tries the commands' names first).
    @Argument(help: .hidden) var unknown: [String] = []

    func run() throws {
        if let word = unknown.first { throw Workshop.unknownCommand(word) }
        let workspace = Workspace.locate()
        let progress = workspace.progress()
        if json {
            print(try Self.json(workspace, progress))
            return
        }
        let states = workspace.states(progress: progress)
        let lessons = workspace.lessons()
        let current = workspace.current(progress: progress)

        Style.line(Style.bold("Sakusaku Workshop") + "  " + Style.dim(workspace.root.path))
        Style.line(Style.progressBar(done: states.filter { $0.status == .done }.count, of: states.count))
        Style.line()

        // One row per lesson (with its first exercise, if it has one), then the other exercises: a
        // lesson's second one ("NNa", under its lesson) and those of no lesson.
        var rows: [(id: String, lesson: String, state: Workspace.State?)] = lessons.map { lesson in
            (lesson.number, lesson.title, states.first { $0.exercise.lesson == lesson.number })
        }
        for state in states where !rows.contains(where: { $0.state?.exercise.id == state.exercise.id }) {
            let lesson = lessons.first { $0.number == state.exercise.lesson }
            rows.append((state.exercise.id, lesson?.title ?? Text.noLesson, state))
        }
        rows.sort { $0.id < $1.id }
        let header = Text.listHeader
        let idWidth = rows.map(\.id.count).max() ?? 2
        // The lesson and the exercise columns share what the terminal's width leaves them
        // (nothing is cut in a pipe): the longest title when it fits, else each a fair part.
        let lessonWanted = rows.map { terminalWidth($0.lesson) }.max() ?? 10
        let titleWanted = states.map { terminalWidth(Text.title($0.exercise)) }.max() ?? 10
        let statusWidth = 2 + (states.map { terminalWidth(Text.status($0.status)) }.max() ?? 10)
        let room = (terminalColumns() ?? .max) - (2 + idWidth + 2 + 2 + statusWidth)
        var lessonWidth = lessonWanted
        var titleWidth = titleWanted
        if room < lessonWanted + titleWanted {
            titleWidth = max(12, min(titleWanted, max(room / 2, room - lessonWanted)))
            lessonWidth = max(12, min(lessonWanted, room - titleWidth))
        }
        Style.line(
            Style.dim(
                "  " + Style.pad(header.id, idWidth) + "  " + Style.pad(header.lesson, lessonWidth) + "  "
                    + Style.pad(header.exercise, titleWidth) + "  " + header.status))
        for row in rows {
            let lesson = truncate(row.lesson, toWidth: lessonWidth)
            let id = Style.pad(row.id, idWidth)
            guard let state = row.state else {
                Style.line("  \(id)  \(Style.pad(lesson, lessonWidth))  \(Style.dim(Text.noExercise))")
                continue
            }
            let marker = state.exercise.id == current?.id ? Style.bold(">") : " "
            let name = truncate(Text.title(state.exercise), toWidth: titleWidth)
            let note = state.note.map { Style.dim(" (\($0))") } ?? ""
            Style.line(
                "\(marker) \(id)  \(Style.pad(lesson, lessonWidth))  \(Style.pad(name, titleWidth))  "
                    + Style.status(state.status) + note)
        }
        Style.line()
        if current != nil { Style.line(Style.dim(Text.currentMarker)) }
        Style.line(Self.next(current.map { workspace.state($0, progress: progress) }, workspace: workspace, progress))
        if let board = progress.board {
            Style.line(Style.dim(Text.boardMember(board.url, board.name, waiting: board.pending.count)))
        }
        if editor.wanted, let current { try editor.open(current, in: workspace) }
    }

    /// One line: what to do now.
    static func next(_ state: Workspace.State?, workspace: Workspace? = nil, _ progress: Progress = Progress())
        -> String
    {
        guard let state else { return Text.nothingLeft }
        let exercise = state.exercise
        let files = workspace?.locations(exercise).joined(separator: ", ") ?? exercise.paths.joined(separator: ", ")
        switch state.status {
        case .notStarted:
            return Text.nextNotStarted(
                exercise, readme: workspace?.readme(exercise) ?? exercise.directory + "/README.md", files: files)
        case .failing:
            return Text.nextFailing(exercise, files: files)
        case .done:
            guard let workspace, let following = workspace.next(after: exercise, progress: progress) else {
                return next(nil)
            }
            return Text.nextAfterDone(exercise, following)
        }
    }

    /// `list --json`: one document, the same in every language.
    struct Entry: Encodable {
        var id: String
        var title: String
        var lesson: String?
        var files: [String]
        var status: String
        var passed: Bool
        var hintsShown: Int
        var hintsTotal: Int
        var current: Bool

        enum CodingKeys: String, CodingKey {
            case id, title, lesson, files, status, passed, hintsShown, hintsTotal, current
        }

        // `lesson` is null, not left out, for the exercise of no lesson.
        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(id, forKey: .id)
            try values.encode(title, forKey: .title)
            try values.encode(lesson, forKey: .lesson)
            try values.encode(files, forKey: .files)
            try values.encode(status, forKey: .status)
            try values.encode(passed, forKey: .passed)
            try values.encode(hintsShown, forKey: .hintsShown)
            try values.encode(hintsTotal, forKey: .hintsTotal)
            try values.encode(current, forKey: .current)
        }
    }

    struct Document: Encodable {
        var current: String?
        var exercises: [Entry]

        func encode(to encoder: any Encoder) throws {
            var values = encoder.container(keyedBy: CodingKeys.self)
            try values.encode(current, forKey: .current)
            try values.encode(exercises, forKey: .exercises)
        }

        enum CodingKeys: String, CodingKey { case current, exercises }
    }

    static func json(_ workspace: Workspace, _ progress: Progress) throws -> String {
        let current = workspace.current(progress: progress)
        let entries = workspace.states(progress: progress).map { state in
            let exercise = state.exercise
            let status: String =
                switch state.status {
                case .done: "done"
                case .failing: "failing"
                case .notStarted: "notStarted"
                }
            return Entry(
                id: exercise.id, title: exercise.title, lesson: exercise.lesson, files: exercise.paths,
                status: status, passed: state.status == .done,
                hintsShown: progress.exercises[exercise.id]?.hintsShown ?? 0,
                hintsTotal: exercise.hints, current: exercise.id == current?.id)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Document(current: current?.id, exercises: entries))
        return String(decoding: data, as: UTF8.self)
    }
}
