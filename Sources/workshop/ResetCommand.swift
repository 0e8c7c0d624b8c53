import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop reset NN`: the exercise's files as shipped, the learner's versions kept as backups.
struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore an exercise's files as shipped; your version is kept in .workshop-backups/.",
        discussion: "Asks first (y/n) on a terminal; scripts and machines without a terminal pass --yes.")

    @Argument(
        help: ArgumentHelp("The exercise, e.g. 03 or R1.", valueName: "exercise"), transform: exerciseArgument)
    var exercise: Exercise

    @Flag(name: .shortAndLong, help: "Do not ask; reset at once.")
    var yes = false

    func run() throws {
        let workspace = Workspace.locate()
        let shipped = workspace.shippedSources(exercise)
        if let missing = exercise.files.first(where: { shipped[$0] == nil }) {
            throw WorkshopFailure(
                "the copy as shipped, \(exercise.shippedDirectory)/\(missing), is missing: "
                    + "`git checkout -- Tests/ExerciseFiles` brings it back")
        }
        let learner = workspace.learnerSources(exercise)
        let changed = exercise.files.filter { learner[$0] != shipped[$0] }
        guard !changed.isEmpty else {
            Style.line("\(exercise.paths.joined(separator: ", ")) already as shipped. Nothing to do.")
            return
        }
        let names = changed.map { exercise.directory + "/" + $0 }.joined(separator: ", ")
        if !yes {
            guard Style.canAsk else {
                throw WorkshopFailure(
                    "reset needs a yes and there is no terminal to ask: run `workshop reset \(exercise.id) --yes`")
            }
            FileHandle.standardOutput.write(
                Data("Reset \(names) to the shipped version? Your version is kept as a backup. [y/N] ".utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                Style.line("Nothing changed.")
                return
            }
        }
        var notes: [String] = []
        for file in changed {
            // The learner's version is saved before anything is written over it.
            if let current = learner[file] {
                notes.append("Your version: " + (try Self.backup(current, named: file, of: exercise, in: workspace)))
            }
            try shipped[file]?.write(
                to: URL(fileURLWithPath: workspace.path(exercise.directory + "/" + file)), options: .atomic)
        }
        Progress.update(workspace.progressFile) { progress in
            progress.exercises[exercise.id]?.checkedFingerprint = nil
            progress.exercises[exercise.id]?.passed = false
        }
        Style.line("Restored \(names) as shipped." + notes.map { " " + $0 }.joined())
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
