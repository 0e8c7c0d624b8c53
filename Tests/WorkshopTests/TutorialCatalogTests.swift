import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// The DocC catalogs `workshop docs` puts together: every tutorial text copied, every file a
/// step or an image names there, the steps' code taken from the exercises themselves.
final class TutorialCatalogTests: XCTestCase {
    let root = ExerciseRoot.builtFrom
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testEveryLanguageHasEveryLessonAndEveryFileItNames() throws {
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: folder.appendingPathComponent(language.rawValue))
            // One tutorial per lesson program (Sources/lessonNN): a new lesson needs no edit here.
            let lessons = Self.lessonNumbers(root).map { "lesson\($0).tutorial" }
            XCTAssertEqual(assembly.tutorials, ["Sakusaku.tutorial"] + lessons, "\(language)")
            for tutorial in assembly.tutorials {
                let text = try String(contentsOf: assembly.catalog.appendingPathComponent(tutorial), encoding: .utf8)
                let named = TutorialCatalog.references(in: text)
                XCTAssertFalse(named.isEmpty, "\(language) \(tutorial) names no file")
                for name in named {
                    let file = assembly.catalog.appendingPathComponent("Resources/\(name)")
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                    XCTAssertGreaterThan(size, 0, "\(language) \(tutorial): \(name) is missing or empty")
                }
                if tutorial != "Sakusaku.tutorial" {
                    XCTAssertTrue(text.contains("@Steps"), "\(language) \(tutorial) has no steps")
                    XCTAssertTrue(named.contains { $0.hasSuffix(".svg") }, "\(language) \(tutorial) shows no timeline")
                    XCTAssertTrue(
                        named.contains { $0.contains("-shipped-") }, "\(language) \(tutorial): no file as shipped")
                    XCTAssertTrue(named.contains { $0.contains("-solution-") }, "\(language) \(tutorial): no reference")
                }
            }
        }
    }

    /// Every step file named after an exercise ("<id>-shipped-<file>", "<id>-solution-<file>")
    /// is that exercise's file as shipped or its reference, byte for byte, in every tutorial.
    func testEveryExerciseStepIsTheShippedFileOrTheReference() throws {
        let exercises = ExerciseCatalog.load(root: root).exercises
        var compared = 0
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: folder.appendingPathComponent(language.rawValue))
            let resources = assembly.catalog.appendingPathComponent("Resources")
            let names = try FileManager.default.contentsOfDirectory(atPath: resources.path)
            for exercise in exercises {
                for file in exercise.files {
                    let shippedName = "\(exercise.id)-shipped-\(file)"
                    if names.contains(shippedName) {
                        XCTAssertEqual(
                            try Data(contentsOf: resources.appendingPathComponent(shippedName)),
                            try ShippedFiles.contents(exercise, file, root: root), "\(language) \(shippedName)")
                        compared += 1
                    }
                    let solutionName = "\(exercise.id)-solution-\(file)"
                    if names.contains(solutionName) {
                        XCTAssertEqual(
                            try Data(contentsOf: resources.appendingPathComponent(solutionName)),
                            try Data(
                                contentsOf: root.appendingPathComponent("\(exercise.solutionDirectory)/\(file)")),
                            "\(language) \(solutionName)")
                        compared += 1
                    }
                }
            }
        }
        // Every lesson walks one exercise from as shipped to its reference, in both languages.
        XCTAssertGreaterThanOrEqual(compared, 2 * Self.lessonNumbers(root).count * 2)
    }

    /// The lessons, by the programs in Sources/ (lessonNN: "NN").
    static func lessonNumbers(_ root: URL) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? []
        return names.filter { $0.range(of: #"^lesson\d\d$"#, options: .regularExpression) != nil }
            .map { String($0.dropFirst("lesson".count)) }.sorted()
    }

    /// Every lesson's tutorial ends with questions for the room: 3 to 7, each a multiple choice
    /// with exactly one right answer and a justification for every choice, in both languages.
    func testEveryLessonAsksTheRoomThreeToSevenQuestions() throws {
        for language in TutorialCatalog.Language.allCases {
            for lesson in Self.lessonNumbers(root) {
                let path = "Lessons/docc/\(language.rawValue)/lesson\(lesson).tutorial"
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                XCTAssertTrue(text.contains("@Assessments"), "\(path) has no @Assessments")
                let questions = text.components(separatedBy: "@MultipleChoice").dropFirst()
                XCTAssertTrue((3...7).contains(questions.count), "\(path): \(questions.count) questions")
                for (index, question) in questions.enumerated() {
                    let choices = question.components(separatedBy: "@Choice(").count - 1
                    let right = question.components(separatedBy: "@Choice(isCorrect: true)").count - 1
                    let justified = question.components(separatedBy: "@Justification").count - 1
                    XCTAssertEqual(right, 1, "\(path) question \(index + 1): one right answer")
                    XCTAssertEqual(justified, choices, "\(path) question \(index + 1): a justification for each choice")
                }
            }
        }
    }

    func testLesson03WalksItsExerciseInFourStepsAndAsksTheRoom() throws {
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: folder.appendingPathComponent(language.rawValue))
            let text = try String(
                contentsOf: assembly.catalog.appendingPathComponent("lesson03.tutorial"), encoding: .utf8)
            // The room's seven questions (Lessons/03-gcd-queues.md), each a multiple choice.
            XCTAssertEqual(text.components(separatedBy: "@MultipleChoice").count - 1, 7, "\(language)")
            XCTAssertEqual(text.components(separatedBy: "@Choice(isCorrect: true)").count - 1, 7, "\(language)")
            XCTAssertEqual(
                TutorialCatalog.references(in: text).filter { $0.hasSuffix(".swift") },
                ["03-shipped-IconLoader.swift", "03-step2-IconLoader.swift", "03-solution-IconLoader.swift"])
        }
    }

    func testAFileNoStepCanFindIsNamedWithItsTutorial() throws {
        let copy = folder.appendingPathComponent("copy")
        try FileManager.default.createDirectory(
            at: copy.appendingPathComponent("Lessons/docc/en"), withIntermediateDirectories: true)
        try Data("@Tutorial(time: 1) { @Code(name: \"A.swift\", file: \"gone.swift\") }".utf8)
            .write(to: copy.appendingPathComponent("Lessons/docc/en/lesson09.tutorial"))
        XCTAssertThrowsError(try TutorialCatalog.assemble(.en, root: copy, into: folder)) { error in
            XCTAssertTrue("\(error)".contains("lesson09.tutorial"), "\(error)")
            XCTAssertTrue("\(error)".contains("gone.swift"), "\(error)")
        }
    }

    func testReferencesReadFilePreviousFileAndSourceOnce() {
        let text = """
            @Code(name: "A.swift", file: "03-step2-A.swift", previousFile: "03-shipped-A.swift")
            @Image(source: "lesson03.svg", alt: "x")
            @Code(name: "A.swift", file: "03-step2-A.swift")
            """
        XCTAssertEqual(
            TutorialCatalog.references(in: text), ["03-step2-A.swift", "03-shipped-A.swift", "lesson03.svg"])
    }

    func testJapaneseTutorialsKeepTheGlossarysTerms() throws {
        let folder = root.appendingPathComponent("Lessons/docc/ja")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for word in ["取り消", "電話機", "タスクプール"] {
                XCTAssertFalse(text.contains(word), "Lessons/docc/ja/\(name) uses \(word) (see Lessons/ja/glossary.md)")
            }
        }
    }
}
