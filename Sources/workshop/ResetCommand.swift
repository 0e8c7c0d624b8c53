import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop reset N`: the exercise file as shipped, the learner's version kept as a backup.
struct Reset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore an exercise's file as shipped (from git); your version is kept in .workshop-backups/.",
        discussion: "Asks first (y/n) on a terminal; scripts and machines without a terminal pass --yes.")

    @Argument(help: ArgumentHelp("The exercise, e.g. 03 or R1.", valueName: "exercise"))
    var exercise: ExerciseArgument

    @Flag(name: .shortAndLong, help: "Do not ask; reset at once.")
    var yes = false

    func run() throws {
        let workspace = Workspace.locate()
        let suite = exercise.suite
        let file = workspace.path(suite.exerciseFile)
        let current = FileManager.default.contents(atPath: file)
        if current != nil, ShippedFile.fingerprint(of: file) == suite.shippedFingerprint {
            Style.line("\(suite.exerciseFile) is already as shipped. Nothing to do.")
            return
        }
        let shipped = try Self.shippedVersion(suite, in: workspace)

        if !yes {
            guard Style.canAsk else {
                throw WorkshopFailure("reset needs a yes and there is no terminal to ask: run `workshop reset \(suite.id) --yes`")
            }
            FileHandle.standardOutput.write(Data("Reset \(suite.exerciseFile) to the shipped version? Your version is kept as a backup. [y/N] ".utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                Style.line("Nothing changed.")
                return
            }
        }

        var backupNote = ""
        if let current {
            let backup = try Self.backup(current, of: suite, in: workspace)
            backupNote = " Your version: \(backup)"
        }
        try shipped.write(to: URL(fileURLWithPath: file), options: .atomic)
        Progress.update(workspace.progressFile) { progress in
            progress.exercises[suite.id]?.checkedFingerprint = nil
            progress.exercises[suite.id]?.passed = false
        }
        Style.line("Restored \(suite.exerciseFile) as shipped.\(backupNote)")
    }

    /// The newest version of the file in git history whose fingerprint is the shipped one:
    /// HEAD's, unless the learner has committed their work, then an earlier one.
    static func shippedVersion(_ suite: any ExerciseCheckSuite.Type, in workspace: Workspace) throws -> Data {
        let git = { (arguments: [String]) throws -> Subprocess.Outcome in
            try Subprocess.run("git", ["-C", workspace.root.path] + arguments, timeout: 60)
        }
        let prefix = try git(["rev-parse", "--show-prefix"])
        guard prefix.succeeded else {
            throw WorkshopFailure("\(workspace.root.path) is not a git checkout, so the shipped \(suite.exerciseFile) cannot be found; "
                                  + "copy it from a fresh clone")
        }
        let path = prefix.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + suite.exerciseFile
        let commits = try git(["log", "--format=%H", "-n", "50", "--", path]).stdout.split(separator: "\n")
        for commit in ["HEAD"] + commits.map(String.init) {
            let version = try git(["show", "\(commit):\(path)"])
            guard version.succeeded else { continue }
            let data = Data(version.stdout.utf8)
            if ShippedFile.fingerprint(of: data) == suite.shippedFingerprint { return data }
        }
        throw WorkshopFailure("no version of \(suite.exerciseFile) in git history matches the shipped one (\(suite.shippedFingerprint))")
    }

    /// Copies the learner's version to .workshop-backups/<exercise folder>/<File>-<time>.swift.
    static func backup(_ data: Data, of suite: any ExerciseCheckSuite.Type, in workspace: Workspace) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = URL(fileURLWithPath: suite.exerciseFile).deletingPathExtension().lastPathComponent
        let folder = ".workshop-backups/" + URL(fileURLWithPath: suite.directory).lastPathComponent
        try FileManager.default.createDirectory(atPath: workspace.path(folder), withIntermediateDirectories: true)
        var relative = "\(folder)/\(name)-\(formatter.string(from: Date())).swift"
        var counter = 2
        while FileManager.default.fileExists(atPath: workspace.path(relative)) {
            relative = "\(folder)/\(name)-\(formatter.string(from: Date()))-\(counter).swift"
            counter += 1
        }
        try data.write(to: URL(fileURLWithPath: workspace.path(relative)))
        return relative
    }
}
