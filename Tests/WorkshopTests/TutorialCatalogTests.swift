import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

/// The DocC catalogs `workshop docs` puts together: every tutorial text copied, every file a
/// step or an image names there, the steps' code taken from the exercises themselves.
@Suite final class TutorialCatalogTests {
    let root = ExerciseRoot.builtFrom
    /// The test's own folder, removed when it is done.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func everyLanguageHasEveryLessonAndEveryFileItNames() async throws {
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: folder.appendingPathComponent(language.rawValue))
            // One tutorial per lesson program (Sources/lessonNN): a new lesson needs no edit here.
            let lessons = Self.lessonNumbers(root).map { "lesson\($0).tutorial" }
            #expect(assembly.tutorials == ["Sakusaku.tutorial"] + lessons, "\(language)")
            for tutorial in assembly.tutorials {
                let text = try String(contentsOf: assembly.catalog.appendingPathComponent(tutorial), encoding: .utf8)
                let named = TutorialCatalog.references(in: text)
                #expect(!named.isEmpty, "\(language) \(tutorial) names no file")
                for name in named {
                    let file = assembly.catalog.appendingPathComponent("Resources/\(name)")
                    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                    #expect(size > 0, "\(language) \(tutorial): \(name) is missing or empty")
                }
                if tutorial != "Sakusaku.tutorial" {
                    #expect(text.contains("@Steps"), "\(language) \(tutorial) has no steps")
                    #expect(named.contains { $0.hasSuffix(".svg") }, "\(language) \(tutorial) shows no timeline")
                    #expect(named.contains { $0.contains("-shipped-") }, "\(language) \(tutorial): no file as shipped")
                    #expect(named.contains { $0.contains("-solution-") }, "\(language) \(tutorial): no reference")
                }
            }
        }
    }

    /// Every step file named after an exercise ("<id>-shipped-<file>", "<id>-solution-<file>")
    /// is that exercise's file as shipped or its reference, byte for byte, in every tutorial.
    @Test func everyExerciseStepIsTheShippedFileOrTheReference() async throws {
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
                        #expect(
                            try Data(contentsOf: resources.appendingPathComponent(shippedName))
                                == ShippedFiles.contents(exercise, file, root: root), "\(language) \(shippedName)")
                        compared += 1
                    }
                    let solutionName = "\(exercise.id)-solution-\(file)"
                    if names.contains(solutionName) {
                        #expect(
                            try Data(contentsOf: resources.appendingPathComponent(solutionName))
                                == Data(
                                    contentsOf: root.appendingPathComponent("\(exercise.solutionDirectory)/\(file)")),
                            "\(language) \(solutionName)")
                        compared += 1
                    }
                }
            }
        }
        // Every lesson walks one exercise from as shipped to its reference, in both languages.
        #expect(compared >= 2 * Self.lessonNumbers(root).count * 2)
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
    @Test func everyLessonAsksTheRoomThreeToSevenQuestions() async throws {
        for language in TutorialCatalog.Language.allCases {
            for lesson in Self.lessonNumbers(root) {
                let path = "Lessons/docc/\(language.rawValue)/lesson\(lesson).tutorial"
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                #expect(text.contains("@Assessments"), "\(path) has no @Assessments")
                let questions = text.components(separatedBy: "@MultipleChoice").dropFirst()
                #expect((3...7).contains(questions.count), "\(path): \(questions.count) questions")
                for (index, question) in questions.enumerated() {
                    let choices = question.components(separatedBy: "@Choice(").count - 1
                    let right = question.components(separatedBy: "@Choice(isCorrect: true)").count - 1
                    let justified = question.components(separatedBy: "@Justification").count - 1
                    #expect(right == 1, "\(path) question \(index + 1): one right answer")
                    #expect(justified == choices, "\(path) question \(index + 1): a justification for each choice")
                }
            }
        }
    }

    @Test func lesson03WalksItsExerciseInFourStepsAndAsksTheRoom() async throws {
        for language in TutorialCatalog.Language.allCases {
            let assembly = try TutorialCatalog.assemble(
                language, root: root, into: folder.appendingPathComponent(language.rawValue))
            let text = try String(
                contentsOf: assembly.catalog.appendingPathComponent("lesson03.tutorial"), encoding: .utf8)
            // The room's seven questions (Lessons/03-gcd-queues.md), each a multiple choice.
            #expect(text.components(separatedBy: "@MultipleChoice").count - 1 == 7, "\(language)")
            #expect(text.components(separatedBy: "@Choice(isCorrect: true)").count - 1 == 7, "\(language)")
            #expect(
                TutorialCatalog.references(in: text).filter { $0.hasSuffix(".swift") } == [
                    "03-shipped-IconLoader.swift", "03-step2-IconLoader.swift", "03-solution-IconLoader.swift",
                ])
        }
    }

    @Test func aFileNoStepCanFindIsNamedWithItsTutorial() async throws {
        let copy = folder.appendingPathComponent("copy")
        try FileManager.default.createDirectory(
            at: copy.appendingPathComponent("Lessons/docc/en"), withIntermediateDirectories: true)
        try Data("@Tutorial(time: 1) { @Code(name: \"A.swift\", file: \"gone.swift\") }".utf8)
            .write(to: copy.appendingPathComponent("Lessons/docc/en/lesson09.tutorial"))
        let error = #expect(throws: (any Error).self) { try TutorialCatalog.assemble(.en, root: copy, into: folder) }
        let text = error.map { "\($0)" } ?? "no error"
        #expect(text.contains("lesson09.tutorial"), "\(text)")
        #expect(text.contains("gone.swift"), "\(text)")
    }

    @Test func referencesReadFilePreviousFileAndSourceOnce() async throws {
        let text = """
            @Code(name: "A.swift", file: "03-step2-A.swift", previousFile: "03-shipped-A.swift")
            @Image(source: "lesson03.svg", alt: "x")
            @Code(name: "A.swift", file: "03-step2-A.swift")
            """
        #expect(TutorialCatalog.references(in: text) == ["03-step2-A.swift", "03-shipped-A.swift", "lesson03.svg"])
    }

    @Test func japaneseTutorialsKeepTheGlossarysTerms() async throws {
        let folder = root.appendingPathComponent("Lessons/docc/ja")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for word in ["取り消", "電話機", "タスクプール"] {
                #expect(!text.contains(word), "Lessons/docc/ja/\(name) uses \(word) (see Lessons/ja/glossary.md)")
            }
        }
    }
}
