import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop new`: for instructors and maintainers. Writes a new lesson or exercise, a copy of the
/// template lesson or exercise (see LessonScaffold, ExerciseScaffold): every file the build, the
/// tests, the texts (en, ja), the tutorials and the catalog need, working as written, with TODOs
/// in the files a person writes. .github/CONTRIBUTING.md lists them.
struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized("For instructors: write a new lesson or exercise, working as written, with TODOs."),
        subcommands: [NewLesson.self, NewExercise.self])
}

/// `workshop new lesson 08 --title "..." --title-ja "..."`.
struct NewLesson: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lesson",
        abstract: localized(
            "Write a new lesson: its kit (three variants), its program, its contract, its tests, its texts and tutorials."
        ))

    @Argument(help: ArgumentHelp(localized("Its number: two digits (08)."), valueName: "NN"))
    var number: String

    @Option(help: ArgumentHelp(localized("Its title in English."), valueName: "text"))
    var title: String

    @Option(name: .customLong("title-ja"), help: ArgumentHelp(localized("Its title in Japanese."), valueName: "text"))
    var titleJapanese: String

    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        let scaffold = LessonScaffold(number: number, title: title, titleJapanese: titleJapanese)
        if let problem = scaffold.problem(root: workspace.root) { throw ValidationError(problem) }
        let files = try scaffold.files(root: workspace.root)
        let package = workspace.root.appendingPathComponent("Package.swift")
        guard let listed = scaffold.package(try String(contentsOf: package, encoding: .utf8)) else {
            throw ValidationError("Package.swift has no `let lessons = [...]` line")
        }
        try ScaffoldFile.write(files, root: workspace.root)
        try Data(listed.utf8).write(to: package)
        for file in files { print((file.append ? localized("added to ") : localized("wrote ")) + file.path) }
        print(localized("added to ") + "Package.swift")
        print(
            localized(
                format:
                    "Next: swift run workshop new exercise %1$@a --lesson %1$@ (its tutorial walks it), swift build, swift run workshop captures --update Lessons/%2$@ Lessons/ja/%2$@, then the TODOs (see .github/CONTRIBUTING.md).",
                number, scaffold.textName))
    }
}

/// `workshop new exercise 08a --lesson 08 --title "..." --title-ja "..."`.
struct NewExercise: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exercise",
        abstract: localized("Write a new exercise's folder: its file, its reference, its checks, its texts."))

    @Argument(
        help: ArgumentHelp(
            localized("Its id: the lesson's number and a letter (08a), or R and a number (R4)."), valueName: "id"))
    var id: String

    @Option(help: ArgumentHelp(localized("The lesson it belongs to (08); none for an R exercise."), valueName: "NN"))
    var lesson: String?

    @Option(help: ArgumentHelp(localized("Its title in English, as `list` shows it."), valueName: "text"))
    var title: String

    @Option(name: .customLong("title-ja"), help: ArgumentHelp(localized("Its title in Japanese."), valueName: "text"))
    var titleJapanese: String

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(localized("The type the learner's file declares (default: Solution)."), valueName: "Name"))
    var typeName = "Solution"

    @OptionGroup var language: LanguageOption

    func run() throws {
        let workspace = Workspace.locate()
        let scaffold = ExerciseScaffold(
            id: id, lesson: lesson, title: title, titleJapanese: titleJapanese, typeName: typeName)
        let existing = ExerciseCatalog.load(root: workspace.root).exercises
        if let problem = scaffold.problem(existing: existing, root: workspace.root) {
            throw ValidationError(problem)
        }
        let files = try scaffold.files(root: workspace.root)
        try ScaffoldFile.write(files, root: workspace.root)
        for file in files { print((file.append ? localized("added to ") : localized("wrote ")) + file.path) }
        // The titles and the count wherever the texts say them, and the check tables of the
        // READMEs from the checks as declared (what `workshop sync` writes).
        let catalog = ExerciseCatalog.load(root: workspace.root).exercises
        for change in CatalogTexts.changes(catalog, root: workspace.root) {
            try Data(change.text.utf8).write(to: workspace.root.appendingPathComponent(change.path))
        }
        if let exercise = catalog.first(where: { $0.id == id }) {
            let sources = workspace.solutionSources(exercise)
            if case .success(let changes) = ExerciseSync().changes(exercise, root: workspace.root, solution: sources) {
                for change in changes {
                    try Data(change.text.utf8).write(to: workspace.root.appendingPathComponent(change.path))
                }
            }
        }
        print(
            localized(
                format:
                    "Next: swift run workshop verify %1$@ (it ships failing, its reference passes), then the TODOs in %2$@ (see .github/CONTRIBUTING.md).",
                id, scaffold.folder))
    }
}
