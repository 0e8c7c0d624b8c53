import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop docs`: the lessons as DocC tutorials, built offline by the toolchain's `docc`
/// into static archives (English and Japanese) that `fixture-server --docs` serves to the room.
struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: localized(
            "For instructors: build the lessons as DocC tutorials (English and Japanese), for fixture-server --docs."),
        discussion: localized(
            """
            Puts each language's catalog together in .build/docs-catalog from Lessons/docc (the \
            tutorial texts), the exercises (each step's code: the file as shipped, the reference) and \
            Lessons/images, then runs `docc convert --transform-for-static-hosting` for it. Both \
            languages unless --lang names one. Serve them with `swift run fixture-server --docs` \
            (add --host 0.0.0.0 for the room). DOCC=/path/to/docc picks another docc.
            """))

    @Option(
        help: ArgumentHelp(
            localized("The folder to build into (default: .build/docs in the package)."), valueName: "folder"))
    var output: String?

    @OptionGroup var language: LanguageOption

    /// How long a run waits for another one to end: docc's time-out, for both languages.
    static let otherRunSeconds = 2 * TutorialArchive.doccTimeout

    func run() throws {
        let root = Workspace.locate().root
        guard let docc = TutorialArchive.findDocc() else { throw WorkshopFailure(Text.doccMissing) }
        let standard = root.appendingPathComponent(".build/docs").standardizedFileURL
        let output = output.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? standard
        let catalogs = root.appendingPathComponent(".build/docs-catalog")
        // One `docs` at a time per package: the catalogs are put together in that one folder, and
        // two runs at once (two test suites, two terminals) wrote over each other's, so that docc
        // found half a catalog.
        try? FileManager.default.createDirectory(
            at: catalogs.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard let (_, lock) = FileLock.take(anyOf: [catalogs.path + ".lock"], timeout: Self.otherRunSeconds) else {
            throw WorkshopFailure(Text.docsBusy(Int(Self.otherRunSeconds)))
        }
        defer { lock.release() }
        // `--lang` both says which archive to build and which language to speak; without it, both.
        let languages =
            Language.asked(in: CommandLine.arguments).flatMap { TutorialCatalog.Language(rawValue: $0.rawValue) }
            .map { [$0] } ?? TutorialCatalog.Language.allCases
        let clock = Stopwatch()
        for language in languages {
            let archive: URL
            do {
                archive = try TutorialArchive.build(
                    language, root: root, catalogs: catalogs, output: output, docc: docc)
            } catch {
                throw WorkshopFailure(Text.docsFailed(language.rawValue, "\(error)"))
            }
            Style.line(Text.docsBuilt(language.rawValue, archive.path))
        }
        try TutorialArchive.writeIndex(output: output)
        Style.line(Text.docsDone(String(format: "%.1f", clock.elapsed)))
        Style.line("  swift run fixture-server --docs" + (output == standard ? "" : " --docs-dir \(output.path)"))
        for language in languages {
            Style.line("  http://127.0.0.1:8080/docs/\(TutorialArchive.entry(language))")
        }
    }
}
