import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `workshop present` without a terminal: its steps come from the lesson text, a script can
/// drive it line by line, and a wrong lesson or step is a usage error.
struct PresentCommandTests {
    static func demos(_ file: String) throws -> [LessonDemo] {
        let text = try String(contentsOf: ExerciseRoot.builtFrom.appendingPathComponent(file), encoding: .utf8)
        return LessonText.demos(in: text, product: "lesson03")
    }

    @Test func lesson03sDemosComeFromItsText() throws {
        let english = try Self.demos("Lessons/03-gcd-queues.md")
        let japanese = try Self.demos("Lessons/ja/03-gcd-queues.md")
        #expect(english.map(\.command) == japanese.map(\.command))
        #expect(english.first?.command == "swift run lesson03")
        #expect(english.first?.point.hasPrefix("The network is just as slow with queues") == true)
        #expect(english.dropFirst().first?.title == "Second demo: a wider image queue")
        #expect(english.dropFirst().first?.point == "Four serial image queues, icon i on queue i mod 4.")
        #expect(japanese.first?.point.hasSuffix("。") == true)
        #expect(
            english.filter(\.needsOwnServer).map(\.command) == [
                "swift run lesson03 --server http://127.0.0.1:8080 --rows 5"
            ])
    }

    /// (The lesson is asked for as "3": one digit works as well as two.)
    @Test(.enabled(if: WorkshopBinary.isBuilt)) func listPrintsTheStepsInEitherLanguage() throws {
        let root = ExerciseRoot.builtFrom
        for (language, file) in [("en", "Lessons/03-gcd-queues.md"), ("ja", "Lessons/ja/03-gcd-queues.md")] {
            let list = try WorkshopBinary.run(["present", "3", "--list", "--lang", language], root: root)
            #expect(list.status == 0, "\(list.stderr)")
            for (index, demo) in try Self.demos(file).enumerated() {
                #expect(list.stdout.contains("\(index + 1). \(demo.title)"), "\(list.stdout)")
                #expect(list.stdout.contains("$ \(demo.command)"), "\(list.stdout)")
            }
        }
    }

    @Test(.enabled(if: WorkshopBinary.isBuilt)) func aWrongLessonOrStepIsAUsageError() throws {
        let root = ExerciseRoot.builtFrom
        let lesson = try WorkshopBinary.run(["present", "09"], root: root)
        #expect(lesson.status == 64)
        #expect(lesson.stderr.contains("there is no lesson \"09\". The lessons are 01, 02, 03"), "\(lesson.stderr)")
        let step = try WorkshopBinary.run(["present", "3", "--step", "99"], root: root)
        #expect(step.status == 64)
        #expect(step.stderr.contains("--step must be between 1 and"), "\(step.stderr)")
    }

    /// Lines on stdin: an empty line runs step 4 (skipped: it needs a room server), the next
    /// ends the presentation; the terminal-less output has the banner and the skip.
    @Test(.enabled(if: WorkshopBinary.isBuilt)) func aScriptDrivesItLineByLine() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("present-\(UUID().uuidString)")
        try Data("\n\nq\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let run = try Subprocess.run(
            "/bin/sh", ["-c", "exec \"$0\" present 03 --step 4 < \"$1\"", WorkshopBinary.path, script.path],
            environment: WorkshopBinary.environment(root: ExerciseRoot.builtFrom), timeout: 60)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("step 4 of 4"), "\(run.stdout)")
        #expect(run.stdout.contains("Skipped here: this demo needs a room server"), "\(run.stdout)")
        #expect(run.stdout.contains("That was the last demo of lesson 03."), "\(run.stdout)")
    }
}
