import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

/// The pieces of `workshop new` and `workshop sync` that need no build, quick: the templates'
/// placeholders replaced in one pass, Package.swift's `lessons` line, and what `sync` derives
/// for exercise.json, which must leave every exercise's own entries alone.
struct ScaffoldTemplateTests {
    static let root = ExerciseFiles.root

    @Test func aValueIsNeverReadAgainAsAPlaceholder() {
        let lesson = LessonScaffold(number: "08", title: "Templates, then rows", titleJapanese: "テンプレート")
        #expect(lesson.renamed("LessonTemplateKit") == "Lesson08Kit")
        #expect(lesson.renamed("[en](Lessons/Template-title.md)") == "[en](Lessons/08-templates-then-rows.md)")
        #expect(lesson.renamed("Lesson Template: the title of the lesson") == "Lesson 08: Templates, then rows")
        #expect(lesson.renamed("doc:lessonTemplate, Templatea") == "doc:lesson08, 08a")
    }

    @Test func newLessonChangesOnlyTheLessonsLineOfPackageSwift() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The next lesson's number, whatever lessons the package has.
        let numbers =
            package.split(separator: "\n").first { $0.hasPrefix("let lessons = [") }?
            .matches(of: /"([0-9]{2})"/).compactMap { Int($0.output.1) } ?? []
        let next = String(format: "%02d", (numbers.max() ?? 0) + 1)
        let lesson = LessonScaffold(number: next, title: "rows", titleJapanese: "行")
        let changed = try #require(lesson.package(package))
        let lines = (package.components(separatedBy: "\n"), changed.components(separatedBy: "\n"))
        #expect(lines.0.count == lines.1.count)
        let differing = zip(lines.0, lines.1).filter { $0 != $1 }
        #expect(differing.count == 1)
        #expect(differing.first?.1.hasSuffix(", \"\(next)\"]") == true, "\(differing)")
        #expect(lesson.problem(root: Self.root) == nil)
        let quoted = LessonScaffold(number: next, title: "\"rows\"", titleJapanese: "行")
        #expect(quoted.problem(root: Self.root)?.contains("title") == true)
    }

    @Test func theTemplateTextsHaveTheSameHeadingsInBothLanguages() throws {
        func text(_ name: String) throws -> String {
            try String(
                contentsOf: Self.root.appendingPathComponent(LessonScaffold.textFolder + "/" + name), encoding: .utf8)
        }
        #expect(try levels(text("text.md")) == levels(text("text.ja.md")))
        #expect(try text("lesson.tutorial").components(separatedBy: "@MultipleChoice").count == 4)
        #expect(try text("lesson.ja.tutorial").components(separatedBy: "@MultipleChoice").count == 4)
    }

    func levels(_ text: String) -> [Int] {
        text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { $0.prefix { $0 == "#" }.count }
    }

    /// sync rewrites `uses` only when a name it calls is no longer declared: never an exercise's own.
    @Test func everyExercisesUsesHoldsSoSyncLeavesIt() throws {
        for exercise in ExerciseCatalog.exercises {
            let shipped = try ShippedFiles.sources(exercise, root: Self.root)
            let files = exercise.files.compactMap { shipped[$0].map { String(decoding: $0, as: UTF8.self) } }
            let foundations = DerivedEntries.foundations(exercise, root: Self.root)
            #expect(
                !DerivedEntries.isStale(exercise.uses, declaring: files + foundations),
                "\(exercise.id): \(exercise.uses)")
        }
    }

    @Test func usesIsWrittenFromWhatTheChecksCall() {
        let file = """
            public struct RowCounter {
                public init(table: [Int], on queue: String) {}
                public func count(of row: Int, completion: @escaping (Int) -> Void, limit: Int) {}
                public static func total(_ rows: [Int]) -> Int { 0 }
                var unused = 0
            }
            """
        let calls =
            "let counter = RowCounter(table: [], on: \"q\")\ncounter.count(of: 1, completion: { _ in }, limit: 2)"
        #expect(
            DerivedEntries.uses(files: [file], calls: calls, japanese: false)
                == "RowCounter(table:on:) and RowCounter.count(of:completion:limit:)")
        #expect(
            DerivedEntries.uses(files: [file], calls: calls + "\nRowCounter.total([])", japanese: true)
                == "RowCounter(table:on:)、RowCounter.count(of:completion:limit:) と RowCounter.total(_:)")
        #expect(DerivedEntries.isStale("Solution.answer()", declaring: [file]))
        #expect(!DerivedEntries.isStale("RowCounter(table:on:), its count(of:completion:limit:)", declaring: [file]))
    }

    @Test func theDerivedEntriesKeepTheRestOfExerciseJsonAsWritten() throws {
        let exercise = try #require(ExerciseCatalog.exercises.first)
        let text = try String(
            contentsOf: Self.root.appendingPathComponent(exercise.metaDirectory + "/exercise.json"), encoding: .utf8)
        #expect(DerivedEntries.withHints(text, count: exercise.hints) == text)
        #expect(DerivedEntries.withFailsAsShipped(text, names: exercise.failsAsShipped) == text)
        #expect(DerivedEntries.withUses(text, english: exercise.uses, japanese: exercise.usesJapanese) == text)
        let changed = try #require(DerivedEntries.withFailsAsShipped(text, names: ["a \"quoted\" check"]))
        let data = try JSONSerialization.jsonObject(with: Data(changed.utf8)) as? [String: Any]
        #expect(data?["failsAsShipped"] as? [String] == ["a \"quoted\" check"])
    }
}
