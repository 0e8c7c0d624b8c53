import ExerciseChecks
import Foundation
import WorkshopCore

extension ExerciseRunner {
    public struct BuildFailure: Error, CustomStringConvertible {
        public let description: String
        /// Whether the errors are in the learner's files (else in the driver, or no error the
        /// compiler placed in a file).
        public let inLearnersFiles: Bool
        init(_ description: String, inLearnersFiles: Bool = false) {
            self.description = description
            self.inLearnersFiles = inLearnersFiles
        }
    }

    /// What a failed compile says: the errors in the learner's files, first error first; the
    /// driver's (or the checks') only when the learner's files compile on their own, and then
    /// as what the driver expects of them, at the driver's place in the exercise's `.meta`.
    func failure(of compile: Subprocess.Outcome, _ exercise: Exercise, in work: URL)
        -> BuildFailure
    {
        let output = compile.stdout + "\n" + compile.stderr
        let errors = CompilerError.all(in: output)
        let learners = errors.filter { exercise.paths.contains($0.path) }
        if !learners.isEmpty { return BuildFailure(learnersErrors(learners), inLearnersFiles: true) }
        guard !errors.isEmpty else {
            return BuildFailure(
                compilerErrors(output) ?? "swiftc: \(compile.describeEnd(timeout: compileTimeout))")
        }
        // Errors only outside the learner's files. The compiler may have stopped before it
        // looked for some of theirs (a data race is found after the types check), so their
        // files are compiled on their own, as the editor does, before the driver is blamed.
        let alone = compileAlone(exercise, in: work)
        if !alone.isEmpty { return BuildFailure(learnersErrors(alone), inLearnersFiles: true) }
        let said =
            exercise.files.count == 1
            ? text(
                "your file compiles on its own, but the check's driver does not compile with it: it uses the names your file had as shipped, and the compiler says:"
            )
            : text(
                "your files compile on their own, but the check's driver does not compile with them: it uses the names your files had as shipped, and the compiler says:"
            )
        let place = { (path: String) in Self.placeInExercise(path, exercise) }
        var shown = [said] + errors.prefix(Self.errorsShown).flatMap { $0.lines(notes: true, place: place) }
        if errors.count > Self.errorsShown { shown.append(moreErrors(errors.count - Self.errorsShown)) }
        return BuildFailure(shown.joined(separator: "\n"))
    }

    /// How many of the compiler's errors a failed compile shows.
    static let errorsShown = 3

    /// The learner's errors, as the compiler printed them: the path as they know it, the line,
    /// the source line and the caret.
    func learnersErrors(_ errors: [CompilerError]) -> String {
        var shown = errors.prefix(Self.errorsShown).flatMap { $0.lines() }
        if errors.count > Self.errorsShown { shown.append(moreErrors(errors.count - Self.errorsShown)) }
        return shown.joined(separator: "\n")
    }

    func moreErrors(_ count: Int) -> String {
        count == 1 ? text("(and 1 more error)") : text(format: "(and %d more errors)", count)
    }

    /// The files the driver is compiled from, named where they are in the exercise's folder:
    /// "check-driver/main.swift" is `.meta/driver.swift`, "check-driver/checks.swift" `.meta/checks.swift`.
    static func placeInExercise(_ path: String, _ exercise: Exercise) -> String {
        guard path.hasPrefix("check-driver/") else { return path }
        let name = String(path.dropFirst("check-driver/".count))
        return exercise.metaDirectory + "/" + (name == "main.swift" ? "driver.swift" : name)
    }

    /// The types the learner's files code against (`.meta/given.swift`), which the editor's
    /// flags (`compile_flags.txt`) list with the learner's file.
    public static let givenSource = "given.swift"

    /// The errors in the learner's files compiled on their own with what the editor sees
    /// (`compile_flags.txt`: the language flags, the lessons' modules, `.meta/given.swift`),
    /// through the compiler's data-race checks (`-emit-sil`); none when it could not run.
    func compileAlone(_ exercise: Exercise, in work: URL) -> [CompilerError] {
        var given: [String] = []
        if let text = exercise.checkSources[Self.givenSource] {
            let path = "check-given/" + Self.givenSource
            let file = work.appendingPathComponent(path)
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard (try? Data(text.utf8).write(to: file)) != nil else { return [] }
            given = [path]
        }
        let arguments =
            Self.languageFlags + [
                "-suppress-warnings", "-diagnostic-style=llvm", "-module-name", exercise.moduleName,
                "-parse-as-library", "-wmo", "-emit-sil", "-o", "/dev/null", "-module-cache-path", moduleCache.path,
            ] + moduleSearchPaths + exercise.paths + given
        guard
            let alone = try? Subprocess.run(
                "swiftc", arguments, currentDirectory: work.path, timeout: compileTimeout)
        else { return [] }
        return CompilerError.all(in: alone.stdout + "\n" + alone.stderr).filter { exercise.paths.contains($0.path) }
    }

    /// The compiler's first error lines, each with its source line and caret, when none of them
    /// names a place in a file (`CompilerError`); nil when it printed none.
    func compilerErrors(_ output: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let errors = lines.indices.filter { lines[$0].contains(": error: ") && !lines[$0].hasPrefix(" ") }
        guard !errors.isEmpty else { return nil }
        var shown: [String] = []
        for index in errors.prefix(Self.errorsShown) {
            shown.append(lines[index])
            // llvm style: the source line, then the caret under the spot.
            if index + 2 < lines.count, lines[index + 2].contains("^"), !lines[index + 1].contains(": error: ") {
                shown += [lines[index + 1], lines[index + 2]]
            }
        }
        if errors.count > Self.errorsShown { shown.append(moreErrors(errors.count - Self.errorsShown)) }
        return shown.joined(separator: "\n")
    }
}
