import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop reset NN` / `workshop reset --all`: the exercises' files as shipped, the
/// learner's versions kept as backups.
struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "Restore an exercise's files (or every exercise's) as shipped; yours are kept in .workshop-backups/."),
        discussion: localized("Asks first (y/n) on a terminal; scripts and machines without a terminal pass --yes."))

    @Argument(
        help: ArgumentHelp(localized("The exercise, e.g. 03 or R1."), valueName: "exercise"),
        transform: exerciseArgument)
    var exercise: Exercise?

    @Flag(help: ArgumentHelp(localized("Reset every exercise.")))
    var all = false

    @Flag(name: .shortAndLong, help: ArgumentHelp(localized("Do not ask; reset at once.")))
    var yes = false

    @OptionGroup var language: LanguageOption

    func validate() throws {
        if all && exercise != nil { throw ValidationError(localized("name one exercise or pass --all, not both")) }
        // Inside an exercise's folder, no id means that exercise.
        if !all && exercise == nil && Self.here == nil {
            throw ValidationError(
                localized(
                    format: "which exercise? e.g. `workshop reset %@`, or `workshop reset --all`",
                    ExerciseCatalog.exercises.first?.id ?? "NN"))
        }
    }

    /// The exercise whose folder the command runs in, if any.
    static var here: Exercise? {
        ExerciseCatalog.exercise(containing: FileManager.default.currentDirectoryPath, root: Workspace.locate().root)
    }

    /// One file to put back: the learner's version (nil when missing) and the copy as shipped.
    struct Change {
        var exercise: Exercise
        var file: String
        var learner: Data?
        var shipped: Data
        var path: String { exercise.directory + "/" + file }
    }

    func run() throws {
        let workspace = Workspace.locate()
        let exercises = all ? ExerciseCatalog.exercises : (exercise ?? Self.here).map { [$0] } ?? []
        var changes: [Change] = []
        for exercise in exercises {
            let shipped: [String: Data]
            // The copies in .meta/shipped: no git needed (a ZIP download has none).
            do { shipped = try ShippedFiles.sources(exercise, root: workspace.root) } catch {
                throw WorkshopFailure(
                    localized(
                        format:
                            "cannot reset: %@, the file as shipped, is missing. It comes with the workshop: copy it from a new download or clone of the workshop. Nothing was changed.",
                        error.path))
            }
            let learner = workspace.learnerSources(exercise)
            for file in exercise.files {
                guard let original = shipped[file] else { continue }
                if learner[file] != original {
                    changes.append(Change(exercise: exercise, file: file, learner: learner[file], shipped: original))
                }
            }
        }
        // Hints start over for every exercise reset, changed or not.
        // (Read as stored: a missing progress file has no hints to forget, nothing to rebuild for.)
        var stored = Progress()
        if case .read(let progress) = Progress.read(workspace.progressFile) { stored = progress }
        let hinted = exercises.filter { (stored.exercises[$0.id]?.hintsShown ?? 0) > 0 }.map(\.id)
        guard !changes.isEmpty else {
            if !hinted.isEmpty {
                workspace.updateProgress { progress in
                    for id in hinted { progress.exercises[id]?.hintsShown = 0 }
                }
            }
            Style.line(
                Text.alreadyShipped(exercises.flatMap(\.paths).joined(separator: ", "))
                    + (hinted.isEmpty ? "" : " " + Text.hintsStartOver))
            return
        }
        let names = changes.map(\.path).joined(separator: ", ")
        if !yes {
            guard Style.canAsk else {
                throw WorkshopFailure(Text.resetNeedsYes("workshop reset " + (exercise?.id ?? "--all")))
            }
            FileHandle.standardOutput.write(Data(Text.resetQuestion(names).utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard Text.isYes(answer) else {
                Style.line(Text.nothingChanged)
                return
            }
        }
        // One line per file: where it is now (path:line of its first TODO again) and where
        // the learner's version went.
        var lines: [String] = []
        for change in changes {
            // The learner's version is saved before anything is written over it.
            var backup: String?
            if let current = change.learner {
                backup = try Self.backup(current, named: change.file, of: change.exercise, in: workspace)
            }
            try change.shipped.write(to: URL(fileURLWithPath: workspace.path(change.path)), options: .atomic)
            let location =
                workspace.locations(change.exercise).first { $0.hasPrefix(change.path + ":") } ?? change.path
            lines.append("  " + location + "  " + (backup.map(Text.yourVersion) ?? Text.wasMissing))
        }
        workspace.updateProgress { progress in
            for id in Set(changes.map(\.exercise.id)) {
                progress.exercises[id]?.checkedFingerprint = nil
                progress.exercises[id]?.passed = false
                progress.exercises[id]?.forgetTime()  // the room's board counts the time from the new start
            }
            for exercise in exercises { progress.exercises[exercise.id]?.hintsShown = 0 }
            // Every exercise back as shipped: start over from the first one not passed.
            if all { progress.current = nil }
        }
        Style.line(Text.restoredHeader(changes.count))
        for line in lines { Style.line(line) }
    }

    /// Copies the learner's version to .workshop-backups/<exercise folder>/<File>-<time>.swift.
    static func backup(_ data: Data, named file: String, of exercise: Exercise, in workspace: Workspace) throws
        -> String
    {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let folder = ".workshop-backups/" + exercise.folder
        try FileManager.default.createDirectory(atPath: workspace.path(folder), withIntermediateDirectories: true)
        var relative = "\(folder)/\(name)-\(formatter.string(from: Date())).swift"
        var counter = 2
        while FileManager.default.fileExists(atPath: workspace.path(relative)) {
            relative = "\(folder)/\(name)-\(formatter.string(from: Date()))-\(counter).swift"
            counter += 1
        }
        try data.write(to: URL(fileURLWithPath: workspace.path(relative)), options: .withoutOverwriting)
        return relative
    }
}
