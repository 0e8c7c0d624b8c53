import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// The learner's copy of the workshop: where it is, its exercises (the learner's files, the
/// copies as shipped and the references), its lessons, and the learner's progress. Nothing
/// about a particular exercise is written here: it all comes from the catalog and the files.
struct Workspace {
    let root: URL
    /// Exercises a rebuild of the progress leaves out: the one a command is about to check
    /// (its result is recorded right after; checking it twice would double a hang's wait).
    var rebuildSkips: Set<String> = []

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
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("Exercises").path)
            {
                return Workspace(root: folder)
            }
            folder.deleteLastPathComponent()
        }
        return Workspace(root: ExerciseRoot.builtFrom.standardizedFileURL)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    var progressFile: URL { root.appendingPathComponent(".workshop-progress") }

    // MARK: - Progress

    /// Says once per run that the progress file was unreadable. A lock, because a `static`
    /// mutable value is shared by every thread (the CLI has one, the compiler cannot know).
    private static let warned = Locked(false)

    /// The learner's progress. A missing or unreadable file (garbage, empty, cut short) is
    /// never an error: it is rebuilt from the checks of the files that differ from the copies
    /// as shipped (hint counts start again), and saved. An unreadable one is kept aside.
    func progress() -> Progress {
        switch Progress.read(progressFile) {
        case .read(let progress): return progress
        case .missing: return rebuildProgress()
        case .unreadable:
            let aside = Progress.setAside(progressFile)
            let first = Self.warned.withLock { warned in
                defer { warned = true }
                return !warned
            }
            if first { Style.warnLine(Text.progressUnreadable(progressFile.lastPathComponent, keptAs: aside)) }
            return rebuildProgress()
        }
    }

    /// Loads, changes and saves the progress in one step.
    func updateProgress(_ change: (inout Progress) -> Void) {
        var progress = progress()
        change(&progress)
        progress.save(progressFile)
    }

    /// Makes `id` the current exercise.
    func setCurrent(_ id: String) {
        updateProgress { progress in
            progress.current = id
            progress.markStarted(id)
        }
    }

    /// Progress as the checks see the files now: every exercise whose files differ from the
    /// copies as shipped is checked again (an unchanged file was built before, so that is quick).
    func rebuildProgress() -> Progress {
        var progress = Progress()
        let changed = ExerciseCatalog.exercises.filter { exercise in
            guard !rebuildSkips.contains(exercise.id) else { return false }
            let learner = Self.fingerprint(learnerSources(exercise), of: exercise)
            return learner != nil && learner != Self.fingerprint(shippedSources(exercise), of: exercise)
        }
        guard !changed.isEmpty else { return progress }
        let toolchain = Toolchain.current
        if SupportLibrary.ensureBuilt(toolchain) != nil { return progress }  // `check` will say why
        let runner = ExerciseRunner(toolchain: toolchain)
        let sources = changed.map(learnerSources)
        // Several at once: a lost progress file costs the slowest check, not the sum of them.
        let reports = inParallel(changed.count, width: defaultCheckWidth) { index in
            runner.check(changed[index], sources: sources[index])
        }
        for (index, exercise) in changed.enumerated() {
            let sources = sources[index]
            let report = reports[index] ?? ExerciseRunner.Report(results: [])
            var record = Progress.Record()
            record.record(
                Self.fingerprint(sources, of: exercise), passed: report.passed, failedChecks: report.failed.count)
            progress.exercises[exercise.id] = record
            Style.warnLine(Text.rebuilt(exercise.id, passed: report.passed))
        }
        progress.save(progressFile)
        return progress
    }

    // MARK: - The three sets of files of an exercise

    /// The files in `folder` (relative to the root) named as `exercise.files`; missing ones are left out.
    func sources(_ exercise: Exercise, in folder: String) -> [String: Data] {
        var sources: [String: Data] = [:]
        for file in exercise.files {
            sources[file] = FileManager.default.contents(atPath: path(folder + "/" + file))
        }
        return sources
    }

    /// The learner's files.
    func learnerSources(_ exercise: Exercise) -> [String: Data] { sources(exercise, in: exercise.directory) }
    /// The files as shipped: the copies in `.meta/shipped` (see `ShippedFiles`); empty when one
    /// is missing.
    func shippedSources(_ exercise: Exercise) -> [String: Data] {
        (try? ShippedFiles.sources(exercise, root: root)) ?? [:]
    }
    /// The reference solution (Exercises/<folder>/.meta/solution).
    func solutionSources(_ exercise: Exercise) -> [String: Data] {
        sources(exercise, in: exercise.solutionDirectory)
    }

    /// One fingerprint for all of an exercise's files; nil when one is missing.
    static func fingerprint(_ sources: [String: Data], of exercise: Exercise) -> String? {
        var all = Data()
        for file in exercise.files {
            guard let data = sources[file] else { return nil }
            all += Data("\(file)\0".utf8) + data + Data([0])
        }
        return WorkshopTools.fingerprint(all)
    }

    // MARK: - Status

    enum Status: String {
        case notStarted = "not started"
        case failing
        case done
    }

    struct State {
        let exercise: Exercise
        let status: Status
        /// Why, when it is not plain: "changed since your last check", "IconLoader.swift is missing...".
        let note: String?
    }

    func states(progress: Progress) -> [State] {
        ExerciseCatalog.exercises.map { state($0, progress: progress) }
    }

    /// Not started: the learner's files are byte for byte as shipped (and were not checked
    /// since). Done or failing: as the last check of exactly these files said.
    func state(_ exercise: Exercise, progress: Progress) -> State {
        let learner = learnerSources(exercise)
        guard let fingerprint = Self.fingerprint(learner, of: exercise) else {
            let missing = exercise.files.filter { learner[$0] == nil }.joined(separator: ", ")
            return State(
                exercise: exercise, status: .failing,
                note: Text.missing(missing, exercise.id))
        }
        let record = progress.exercises[exercise.id]
        if let record, record.checkedFingerprint == fingerprint {
            return State(exercise: exercise, status: record.passed ? .done : .failing, note: nil)
        }
        // A version that passed before (back after `git stash pop`, or a reset undone).
        if let record, record.passedFingerprints.contains(fingerprint) {
            return State(exercise: exercise, status: .done, note: nil)
        }
        if fingerprint == Self.fingerprint(shippedSources(exercise), of: exercise) {
            return State(exercise: exercise, status: .notStarted, note: nil)
        }
        let note = record?.passed == true ? Text.changedSincePassed : Text.changedSinceChecked
        return State(exercise: exercise, status: .failing, note: note)
    }

    /// The exercise a command without one means: the folder's, inside an exercise's folder
    /// (`cd Exercises/NN-name && swift run workshop check`), else the current one.
    func meant(progress: Progress) -> Exercise? {
        ExerciseCatalog.exercise(containing: FileManager.default.currentDirectoryPath, root: root)
            ?? current(progress: progress)
    }

    /// The current exercise: the one last checked, hinted, watched or started; before any of
    /// that, the first one not done.
    func current(progress: Progress) -> Exercise? {
        if let id = progress.current, let exercise = ExerciseCatalog.exercise(id: id) { return exercise }
        return states(progress: progress).first { $0.status != .done }?.exercise
    }

    /// What to work on next: the one notion `list` ("Next: ...") and `next` share. The current
    /// exercise until it passes, then the first one not passed after it; nil when all pass.
    func upNext(progress: Progress) -> Exercise? {
        guard let current = current(progress: progress) else { return nil }
        if state(current, progress: progress).status != .done { return current }
        return next(after: current, progress: progress)
    }

    /// The first exercise not done after `exercise`, in catalog order (then from the start).
    func next(after exercise: Exercise, progress: Progress) -> Exercise? {
        let all = states(progress: progress)
        let start = (all.firstIndex { $0.exercise.id == exercise.id } ?? -1) + 1
        let rotated = all[start...] + all[..<start]
        return rotated.first { $0.status != .done && $0.exercise.id != exercise.id }?.exercise
    }

    /// The learner's files as `path:line`, the line of the first `TODO` in each (line 1 when
    /// none is left), so a terminal makes them clickable and an editor opens them there.
    func locations(_ exercise: Exercise) -> [String] {
        let learner = learnerSources(exercise)
        return exercise.files.map { file in
            let relative = exercise.directory + "/" + file
            guard let data = learner[file] else { return relative }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let line = (lines.firstIndex { $0.contains("TODO") } ?? 0) + 1
            return "\(relative):\(line)"
        }
    }

    /// "Exercises/NN-name/README.md", or its Japanese README.ja.md when speaking Japanese.
    func readme(_ exercise: Exercise) -> String { document(exercise, "README") }

    /// `name`.md, or `name`.ja.md in Japanese when there is one.
    func document(_ exercise: Exercise, _ name: String) -> String {
        let japanese = "\(exercise.directory)/\(name).ja.md"
        if Language.current == .ja, FileManager.default.fileExists(atPath: path(japanese)) { return japanese }
        return "\(exercise.directory)/\(name).md"
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
            // In Japanese, the heading of Lessons/ja/<same name> when that text is there.
            let japanese = folder.appendingPathComponent("ja/" + name)
            let file =
                Language.current == .ja && FileManager.default.fileExists(atPath: japanese.path)
                ? japanese : folder.appendingPathComponent(name)
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let heading = text.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
            return Lesson(number: String(name.prefix(2)), file: "Lessons/" + name, title: heading ?? name)
        }
    }

    // MARK: - Hints

    /// The numbered hints of hints.md (hints.ja.md in Japanese): each starts with "N. " at the start of a line.
    func hints(for exercise: Exercise) -> [String] {
        guard let text = try? String(contentsOfFile: path(document(exercise, "hints")), encoding: .utf8) else {
            return []
        }
        return HintsFile.hints(in: text)
    }
}
