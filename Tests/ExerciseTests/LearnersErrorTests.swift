import ExerciseChecks
import Foundation
import Testing

@testable import WorkshopTools

/// What `check` says of a file that does not compile or crashes: the learner's own error first,
/// at the path they know and the line, and a crash at one place, with a hint only when the
/// crash is that hint's case. Examples picked by what an exercise is, never by id.
enum LearnersErrors {
    /// An exercise whose hints say where the Screen may be touched (its check traps elsewhere).
    static var screen: Exercise {
        pick("an exercise with a hint about the Screen and the main queue") { exercise in
            let hints = (try? ExerciseFiles.document(exercise, "hints.md")).map(HintsFile.hints(in:)) ?? []
            return hints.contains { $0.contains("Screen") && $0.contains("DispatchQueue.main") }
        }
    }

    /// An exercise whose file as shipped switches Swift 6's checking off (`nonisolated(unsafe)`):
    /// partway done, the compiler finds errors both in it and in the driver.
    static var swift6Clean: Exercise {
        pick("an exercise whose file as shipped says nonisolated(unsafe)") { exercise in
            ((try? ExerciseFiles.text(exercise, .shipped)) ?? "").contains("nonisolated(unsafe) ")
        }
    }

    static func pick(_ what: String, _ test: (Exercise) -> Bool) -> Exercise {
        guard let exercise = ExerciseCatalog.exercises.first(where: test) else {
            preconditionFailure("the catalog has no \(what)")
        }
        return exercise
    }

    /// The file's lines (1-based `line` is `lines[line - 1]`).
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `text` with a syntax error: the `{` taken off the first line that opens a statement's
    /// block (`for`, `if`, `while`, `guard`, `switch`), else a declaration's; and that line.
    /// The issue's case: a `{` missing in a function body once showed as an error elsewhere.
    static func syntaxError(in text: String) -> (text: String, line: Int)? {
        var lines = lines(text)
        let modifiers: Set = [
            "public", "private", "fileprivate", "internal", "static", "final", "nonisolated", "override", "mutating",
        ]
        let statements: Set = ["for", "if", "while", "guard", "switch"]
        let declarations: Set = ["func", "init", "class", "struct", "enum", "actor", "extension"]
        /// The line's keyword, after its modifiers and attributes ("init(x: Int) {": "init").
        func keyword(_ line: String) -> String? {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard code.hasSuffix(" {"), code.filter({ $0 == "{" }).count == 1 else { return nil }
            let words = code.split(separator: " ").drop { modifiers.contains(String($0)) || $0.hasPrefix("@") }
            return words.first.map { String($0.prefix { $0.isLetter }) }
        }
        for keywords in [statements, declarations] {
            guard let index = lines.indices.first(where: { keyword(lines[$0]).map(keywords.contains) == true }) else {
                continue
            }
            lines[index] = String(lines[index].dropLast(2))
            return (lines.joined(separator: "\n"), index + 1)
        }
        return nil
    }

    /// `text` with a type error on a line of its own, before the line of the first `TODO(`
    /// (a comment, so between two statements or declarations); and that line.
    static func typeError(in text: String) -> (text: String, line: Int) {
        var lines = lines(text)
        let index = lines.firstIndex { $0.contains("TODO(") } ?? 2
        let indent = lines[index].prefix { $0 == " " }
        lines.insert(indent + "let plantedTypeError: Int = \"not a number\"", at: index)
        return (lines.joined(separator: "\n"), index + 1)
    }

    /// The compile check's failure for `text` as `exercise`'s one file, compiled in one of `slots`.
    static func compileFailure(_ exercise: Exercise, _ text: String, in slots: CaseSlots) async throws -> CheckResult {
        let results = await slots.run {
            ExerciseRunner().check(exercise, sources: ExerciseFiles.sources(exercise, text: text)).results
        }
        let result = try #require(results.first, "\(exercise.id): no result")
        #expect(result.name == ExerciseRunner.compileCheck && !result.passed, "\(exercise.id): \(results)")
        return result
    }

    /// The failure's first line names `path` and `line` ("path:line:column: error: ...").
    static func expectFirstLine(_ result: CheckResult, _ path: String, _ line: Int, _ what: String) {
        let first = String(result.got.split(separator: "\n").first ?? "")
        #expect(first.hasPrefix("\(path):\(line):") && first.contains(": error: "), "\(what): \(result.got)")
    }
}

/// The learner's suite: the issue's two exercises (picked by what they are), the driver's error,
/// a crash; each a compile (and a run for a crash), two at a time.
@Suite struct LearnersErrorTests {
    static let slots = CaseSlots(2)
    static let examples = [LearnersErrors.screen.id, LearnersErrors.swift6Clean.id]

    @Test(arguments: examples)
    func aMissingBraceIsShownFirstAtItsLine(_ id: String) async throws {
        let exercise = ExerciseFiles.exercise(id)
        let planted = try #require(LearnersErrors.syntaxError(in: try ExerciseFiles.text(exercise, .shipped)))
        let result = try await LearnersErrors.compileFailure(exercise, planted.text, in: Self.slots)
        LearnersErrors.expectFirstLine(result, exercise.paths[0], planted.line, "\(id), { taken off")
        #expect(result.expected == "your file compiles", "\(result.expected)")
    }

    @Test(arguments: examples)
    func aTypeErrorIsShownFirstAtItsLine(_ id: String) async throws {
        let exercise = ExerciseFiles.exercise(id)
        let planted = LearnersErrors.typeError(in: try ExerciseFiles.text(exercise, .shipped))
        let result = try await LearnersErrors.compileFailure(exercise, planted.text, in: Self.slots)
        LearnersErrors.expectFirstLine(result, exercise.paths[0], planted.line, "\(id), a type error")
    }

    /// Partway done (the promise `@unchecked Sendable` gone, the code not yet changed): the
    /// learner's own errors, not the driver's data race that follows from them.
    @Test func partwayDoneTheLearnersErrorsComeBeforeTheDrivers() async throws {
        let exercise = LearnersErrors.swift6Clean
        let shipped = try ExerciseFiles.text(exercise, .shipped)
        #expect(shipped.contains(": @unchecked Sendable {"))
        let text = shipped.replacingOccurrences(of: ": @unchecked Sendable {", with: " {")
        let result = try await LearnersErrors.compileFailure(exercise, text, in: Self.slots)
        let first = String(result.got.split(separator: "\n").first ?? "")
        #expect(first.hasPrefix(exercise.paths[0] + ":"), "\(result.got)")
        #expect(!result.got.contains("driver"), "\(result.got)")
    }

    /// A file that compiles on its own but not with the driver (the catalog's case of a name
    /// the driver uses gone): the driver's error, at `.meta/driver.swift`, as what it expects.
    @Test func theDriversErrorIsWhatItExpectsOfTheFile() async throws {
        let phrase = "it uses the names your file had as shipped"
        let found = ExerciseCatalog.exercises.lazy.compactMap { exercise in
            exercise.cases.first { $0.says?[ExerciseRunner.compileCheck]?.contains(phrase) == true }.map {
                (exercise, $0)
            }
        }.first
        let (exercise, mutation) = try #require(found, "no case of a name the driver uses gone")
        let text = try MutationCaseSlowTests.source(exercise, mutation)
        let result = try await LearnersErrors.compileFailure(exercise, text, in: Self.slots)
        let lines = result.got.split(separator: "\n").map { String($0) }
        #expect(lines.first?.hasPrefix("your file compiles on its own, but the check's driver") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix(exercise.metaDirectory + "/driver.swift:") == true, "\(lines)")
        #expect(!result.got.contains("check-driver/"), "\(result.got)")
        #expect(result.expected == ExerciseRunner().compileWanted(exercise))
    }

    /// `fatalError()` in the learner's file: the crash is said at one place, their path and
    /// line, not also by the module's name; and no hint, since none is about it.
    @Test func aCrashPointsAtOnePlace() async throws {
        let exercise = LearnersErrors.screen
        var lines = LearnersErrors.lines(try ExerciseFiles.text(exercise, .shipped))
        let index = try #require(lines.firstIndex { $0.contains("TODO(") })
        lines.insert(String(lines[index].prefix { $0 == " " }) + "fatalError()", at: index)
        let text = lines.joined(separator: "\n")
        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        let report = await Self.slots.run {
            ExerciseRunner().check(exercise, sources: ExerciseFiles.sources(exercise, text: text), hints: hints)
        }
        let crash = try #require(report.results.first { $0.name == ExerciseRunner.crashCheck }, "\(report.results)")
        let place = "\(exercise.paths[0]):\(index + 1):"
        #expect(crash.got.components(separatedBy: place).count == 2, "said once: \(crash.got)")
        #expect(!crash.got.contains(exercise.moduleName + "/"), "\(crash.got)")
        #expect(crash.hint == 0, "no hint is about a fatalError: \(crash.got)")
        #expect(!crash.expected.contains("Screen"), "\(crash.expected)")
    }

    /// The Screen touched off the main queue (the catalog's case): its trap in the backtrace is
    /// the evidence, and the hint that says where the Screen may be touched is pointed to.
    /// (Not in a thread-sanitized build: there the runner turns Swift's crash reporter off, since
    /// it and the sanitizer fight over a crashing process, so no backtrace holds the evidence.)
    @Test(.disabled(if: Toolchain.builtWithThreadSanitizer, "no backtrace under the thread sanitizer"))
    func theScreenTouchedOffMainPointsToItsHint() async throws {
        let exercise = LearnersErrors.screen
        let mutation = try #require(
            exercise.cases.first { $0.says?[ExerciseRunner.crashCheck] != nil }, "no crash case in its cases.json")
        let text = try MutationCaseSlowTests.source(exercise, mutation)
        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        let report = await Self.slots.run {
            ExerciseRunner().check(exercise, sources: ExerciseFiles.sources(exercise, text: text), hints: hints)
        }
        let crash = try #require(report.results.first { $0.name == ExerciseRunner.crashCheck }, "\(report.results)")
        #expect(crash.expected.contains("Screen"), "\(crash.expected)")
        let hint = try #require(hints.indices.contains(crash.hint - 1) ? hints[crash.hint - 1] : nil, "\(crash)")
        #expect(hint.contains("Screen") && hint.contains("DispatchQueue.main"), "\(hint)")
        #expect(crash.got.components(separatedBy: exercise.paths[0]).count == 2, "one place: \(crash.got)")
    }

    /// What the runner compiles with the learner's files on their own is what the editor's
    /// flags list: `.meta/given.swift` when the exercise has it, nothing else.
    @Test func theEditorAndTheRunnerSeeTheSameFiles() throws {
        for exercise in ExerciseCatalog.exercises {
            let flags = try ExerciseFiles.document(exercise, "compile_flags.txt")
            let files = flags.split(separator: "\n").filter { $0.hasSuffix(".swift") }.map { String($0) }
            let given = exercise.checkSources[ExerciseRunner.givenSource] != nil
            #expect(files == (given ? [".meta/" + ExerciseRunner.givenSource] : []), "\(exercise.directory): \(files)")
        }
    }

    /// swiftc's llvm-style output read as errors: each once, in order, with its excerpt and
    /// notes (a fix-it line of spaces left out); the driver's own lines ("error: emit-module command
    /// failed") left out.
    @Test func theCompilersOutputIsReadAsErrors() {
        let output = """
            error: emit-module command failed with exit code 1 (use -v to see invocation)
            Exercises/x/A.swift:18:51: error: expected '{' to start the body of for-each loop
                    for x in xs
                               ^
            \(String(repeating: " ", count: 33))
            check-driver/main.swift:122:11: error: sending 'loader' risks causing data races [#SendingRisksDataRace]
                await f(loader)
                      ^~~~~~~~~
            check-driver/main.swift:122:11: note: sending 'loader' to main actor-isolated global function
                await f(loader)
                      ^
            Exercises/x/A.swift:21:23: warning: var never mutated
            Exercises/x/A.swift:18:51: error: expected '{' to start the body of for-each loop
                    for x in xs
                               ^
            """
        let errors = CompilerError.all(in: output)
        #expect(errors.map(\.path) == ["Exercises/x/A.swift", "check-driver/main.swift"])
        #expect(errors.first?.excerpt.count == 2)
        #expect(errors.last?.notes.count == 1)
        let shown = errors.last?.lines(notes: true) { "Exercises/x/.meta/" + $0.dropFirst("check-driver/".count) }
        #expect(
            shown?.first
                == "Exercises/x/.meta/main.swift:122:11: error: sending 'loader' risks causing data races [#SendingRisksDataRace]"
        )
        #expect(shown?.last?.hasPrefix("Exercises/x/.meta/main.swift:122:11: note: sending") == true)
    }

    /// The texts the runner says of a compile error and a crash have their Japanese.
    @Test func theRunnersTextsHaveJapanese() {
        var runner = ExerciseRunner()
        runner.japanese = true
        for english in [
            "your file compiles", "your files compile",
            "your file compiles on its own, but the check's driver does not compile with it: it uses the names your file had as shipped, and the compiler says:",
            "your files compile on their own, but the check's driver does not compile with them: it uses the names your files had as shipped, and the compiler says:",
            "(and 1 more error)", "(and %d more errors)",
            "code that checks its queue (dispatchPrecondition, MainActor.assumeIsolated) runs only on that queue",
            "no trap (a failed precondition, a fatalError, a nil unwrapped with !, an index out of range)",
        ] {
            #expect(runner.text(english) != english, "no Japanese for \(english)")
        }
    }
}

/// The slow tier: for every exercise of the catalog, a `{` taken off and a type error, each
/// in its file as shipped, give a failed compile whose first line names that file and line.
@Suite struct LearnersErrorSlowTests {
    static let slots = CaseSlots(2)

    @Test(arguments: ExerciseCatalog.exercises.map(\.id))
    func plantedErrorsAreShownFirstAtTheirLine(_ id: String) async throws {
        let exercise = ExerciseFiles.exercise(id)
        let shipped = try ExerciseFiles.text(exercise, .shipped)
        let missingBrace = try #require(LearnersErrors.syntaxError(in: shipped), "\(id): no line opens a block")
        let typeError = LearnersErrors.typeError(in: shipped)
        for (planted, what) in [(missingBrace, "{ taken off"), (typeError, "a type error")] {
            let result = try await LearnersErrors.compileFailure(exercise, planted.text, in: Self.slots)
            LearnersErrors.expectFirstLine(result, exercise.paths[0], planted.line, "\(id), \(what)")
        }
    }
}
