import ExerciseChecks
import Foundation

/// The learner's copy of the workshop: where it is, its exercises and lessons, and the
/// learner's progress. Everything here is read from the catalog and the files; nothing about
/// a particular exercise is written in the CLI.
struct Workspace {
    let root: URL

    /// `WORKSHOP_ROOT` when set (tests point it at a copy), else the nearest folder at or above
    /// the current one with a Package.swift and an Exercises folder, else the package this
    /// program was built from.
    static func locate() -> Workspace {
        if let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"], !root.isEmpty {
            return Workspace(root: URL(fileURLWithPath: root).standardizedFileURL)
        }
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
               FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises").path) {
                return Workspace(root: folder)
            }
            folder.deleteLastPathComponent()
        }
        return Workspace(root: ExerciseRoot.builtFrom.standardizedFileURL)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    var progressFile: URL { root.appendingPathComponent(".workshop-progress") }

    /// Whether this is the package the running program was compiled from (so the exercise
    /// code inside this program is the code in these files, once rebuilt).
    var isBuildRoot: Bool {
        root.resolvingSymlinksInPath().path == ExerciseRoot.builtFrom.standardizedFileURL.resolvingSymlinksInPath().path
    }

    // MARK: - Exercises

    enum Status: String {
        case notStarted = "not started"
        case failing
        case done
    }

    struct Exercise {
        let suite: any ExerciseCheckSuite.Type
        let status: Status
        /// Why, when it is not plain: "changed since your last check", "file missing".
        let note: String?
    }

    func exercises(progress: Progress) -> [Exercise] {
        ExerciseCatalog.suites.map { exercise($0, progress: progress) }
    }

    func exercise(_ suite: any ExerciseCheckSuite.Type, progress: Progress) -> Exercise {
        guard let fingerprint = ShippedFile.fingerprint(of: path(suite.exerciseFile)) else {
            return Exercise(suite: suite, status: .failing, note: "\(suite.exerciseFile) is missing: workshop reset \(suite.id)")
        }
        let record = progress.exercises[suite.id]
        if let record, record.checkedFingerprint == fingerprint {
            return Exercise(suite: suite, status: record.passed ? .done : .failing, note: nil)
        }
        if fingerprint == suite.shippedFingerprint {
            return Exercise(suite: suite, status: .notStarted, note: nil)
        }
        let note = record?.passed == true ? "changed since it passed" : "changed since your last check"
        return Exercise(suite: suite, status: .failing, note: note)
    }

    /// The first exercise (in catalog order) that is not done.
    func current(progress: Progress) -> Exercise? {
        exercises(progress: progress).first { $0.status != .done }
    }

    // MARK: - Lessons

    struct Lesson {
        let number: String
        let file: String
        let title: String
    }

    /// Lessons/NN-*.md, each with the text of its first "# " heading.
    func lessons() -> [Lesson] {
        let folder = root.appendingPathComponent("Lessons")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") && $0.prefix(2).allSatisfy(\.isNumber) }.sorted().map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            let heading = text.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
            return Lesson(number: String(name.prefix(2)), file: "Lessons/" + name, title: heading ?? name)
        }
    }

    // MARK: - Hints

    /// The numbered hints of hints.md: each starts with "N. " at the start of a line.
    func hints(for suite: any ExerciseCheckSuite.Type) -> [String] {
        let file = path(suite.directory + "/hints.md")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        var hints: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let dot = line.firstIndex(of: "."), dot > line.startIndex, line[..<dot].allSatisfy(\.isNumber),
               line[line.index(after: dot)...].hasPrefix(" ") {
                hints.append(String(line))
            } else if !hints.isEmpty, !line.hasPrefix("#") {
                hints[hints.count - 1] += "\n" + line
            }
        }
        return hints.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
