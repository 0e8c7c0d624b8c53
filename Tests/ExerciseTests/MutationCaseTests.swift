import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

/// Every exercise's mutation cases (`.meta/cases.json`, see `MutationCase`), checked the way
/// `workshop check` checks a learner's file: each fix half done fails the checks it names and
/// passes the others it names; each other correct fix passes. One test for the whole catalog:
/// an exercise's cases are data in its folder, and a new exercise's cases run with no edit here.
/// The slow tier (its name ends in SlowTests): each case is a compile and a run of its own,
/// two at a time (`CaseSlots`).
@Suite struct MutationCaseSlowTests {
    /// "03a#2": an exercise's id and the case's place in its cases.json.
    static let cases: [String] = ExerciseCatalog.exercises.flatMap { exercise in
        exercise.cases.indices.map { "\(exercise.id)#\($0 + 1)" }
    }

    /// The learner's one file as the case makes it.
    static func source(_ exercise: Exercise, _ mutation: MutationCase) throws -> String {
        if let text = mutation.text { return text }
        let kind = ExerciseFiles.Kind(rawValue: mutation.from ?? "")
        let from = try #require(kind, "\(exercise.id): '\(mutation.about)' needs a file or from: shipped|solution")
        var text = try ExerciseFiles.text(exercise, from)
        for pair in mutation.replace ?? [] {
            try #require(pair.count == 2, "\(exercise.id): '\(mutation.about)': replace takes [old, new] pairs")
            try #require(
                text.contains(pair[0]), "\(exercise.id): '\(mutation.about)': the \(from) file has no \(pair[0])")
            text = text.replacingOccurrences(of: pair[0], with: pair[1])
        }
        return text
    }

    /// Two cases at a time: a case is mostly one compiler process (one core), so one at a time
    /// left a core idle once the tier's other processes had ended (in a CI rehearsal the cases
    /// were the last 5 minutes of the tier, at half the machine). More than two would only queue
    /// for the cores, and load a case's own run more than a learner's check ever is.
    static let slots = CaseSlots(2)

    @Test(arguments: cases)
    func theChecksJudgeTheCaseAsItSays(_ name: String) async throws {
        let parts = name.split(separator: "#")
        let exercise = ExerciseFiles.exercise(String(parts[0]))
        let mutation = exercise.cases[try #require(Int(parts[1])) - 1]
        // A case built thread-sanitized has no memory limit to meet (the sanitizer's shadow memory).
        if mutation.unlessThreadSanitized == true && Toolchain.builtWithThreadSanitizer { return }
        let text = try Self.source(exercise, mutation)
        let hints = HintsFile.hints(in: try ExerciseFiles.document(exercise, "hints.md"))
        let timeout = mutation.timeout
        let checked = await Self.slots.run {
            var runner = ExerciseRunner()
            if let timeout { runner.runTimeout = timeout }
            return runner.check(exercise, sources: ExerciseFiles.sources(exercise, text: text), hints: hints).results
        }
        let results = Dictionary(checked.map { ($0.name, $0) }) { first, _ in first }
        let shown = checked.map(\.description).joined(separator: "\n")
        let known = Set(
            exercise.checks + [ExerciseRunner.compileCheck, ExerciseRunner.crashCheck, ExerciseRunner.finishCheck])
        for check in mutation.fails + (mutation.passes ?? []) + (mutation.notRun ?? []) {
            #expect(known.contains(check), "\(name) '\(mutation.about)': no check named \(check)")
        }
        for check in mutation.fails {
            #expect(
                results[check].map { !$0.passed && !$0.notRun } == true,
                "\(name) '\(mutation.about)': \(check) fails\n\(shown)")
        }
        for check in mutation.passes ?? [] {
            #expect(results[check]?.passed == true, "\(name) '\(mutation.about)': \(check) passes\n\(shown)")
        }
        for check in mutation.notRun ?? [] {
            #expect(results[check]?.notRun == true, "\(name) '\(mutation.about)': \(check) does not run\n\(shown)")
        }
        for (check, words) in mutation.says ?? [:] {
            #expect(
                results[check]?.got.contains(words) == true,
                "\(name) '\(mutation.about)': \(check) says \(words)\n\(shown)")
        }
    }

}

/// At most `count` pieces of blocking work at once, each on a thread of its own: a check waits
/// on its compiler and its program, and must not hold one of the few threads Swift Testing's
/// tasks run on while it does (the other slow suites in this process run there).
actor CaseSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }  // handed a slot by `release`
        }
        defer { release() }
        return await withCheckedContinuation { done in
            Thread { done.resume(returning: work()) }.start()
        }
    }

    private func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// The cases' data, quick: every exercise has cases, and each names checks the exercise has.
struct MutationCaseDataTests {
    @Test func everyExerciseHasAFixHalfDone() {
        for exercise in ExerciseCatalog.exercises {
            #expect(
                exercise.cases.contains { !$0.fails.isEmpty }, "\(exercise.id): no mutation case in .meta/cases.json")
        }
    }

    @Test func everyCaseNamesChecksTheExerciseHas() {
        for exercise in ExerciseCatalog.exercises {
            let known = Set(
                exercise.checks + [ExerciseRunner.compileCheck, ExerciseRunner.crashCheck, ExerciseRunner.finishCheck])
            for mutation in exercise.cases {
                let named =
                    mutation.fails + (mutation.passes ?? []) + (mutation.notRun ?? []) + (mutation.says ?? [:]).keys
                #expect(
                    named.allSatisfy(known.contains),
                    "\(exercise.id) '\(mutation.about)': \(named.filter { !known.contains($0) })")
                #expect(
                    (mutation.file == nil) != (mutation.from == nil),
                    "\(exercise.id) '\(mutation.about)': a file, or from and replace")
            }
        }
    }
}
