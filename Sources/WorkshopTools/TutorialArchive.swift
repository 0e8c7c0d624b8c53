import Foundation
import WorkshopCore

/// The tutorials built by the toolchain's `docc` into static archives, one per language, in
/// one folder that the fixture server serves at `/docs/` (`fixture-server --docs`):
///
///     <output>/index.html   a page that links each language's tutorials
///     <output>/en/          the English archive, built for the base path /docs/en
///     <output>/ja/          the Japanese one, for /docs/ja
public enum TutorialArchive {
    /// Where the tutorials' table of contents is, under a language's archive.
    public static let tutorialsPath = "tutorials/\(TutorialCatalog.name.lowercased())"

    /// The page that opens a language's tutorials, under /docs/: `en/tutorials/sakusaku` and
    /// `ja/tutorials/sakusaku`. The Japanese archive's renderer speaks Japanese there
    /// (`TutorialRenderer`), so DocC's own words (its navigation, "Check Your Understanding") are
    /// Japanese too.
    public static func entry(_ language: TutorialCatalog.Language) -> String {
        "\(language.rawValue)/\(tutorialsPath)"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The `docc` to run: `$DOCC` when set, else `docc` on PATH, else the one beside `swift`
    /// (toolchains ship it in the same folder); nil when there is none.
    public static func findDocc(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["DOCC"], !given.isEmpty {
            return FileManager.default.isExecutableFile(atPath: given) ? given : nil
        }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for name in ["docc", "swift"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                let found = URL(fileURLWithPath: "\(folder)/\(name)").resolvingSymlinksInPath()
                let docc = found.deletingLastPathComponent().appendingPathComponent("docc").path
                if FileManager.default.isExecutableFile(atPath: docc) { return docc }
            }
        }
        return nil
    }

    /// How long one `docc convert` may take.
    public static let doccTimeout = 120.0

    /// Assembles the `language` catalog under `catalogs` and converts it into `output/<language>`
    /// (replacing an older archive). Returns the archive's folder.
    public static func build(
        _ language: TutorialCatalog.Language, root: URL, catalogs: URL, output: URL, docc: String,
        timeout: Double = doccTimeout
    ) throws -> URL {
        let assembly = try TutorialCatalog.assemble(
            language, root: root, into: catalogs.appendingPathComponent(language.rawValue))
        let archive = output.appendingPathComponent(language.rawValue)
        try? FileManager.default.removeItem(at: archive)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let outcome = try Subprocess.run(
            docc,
            [
                "convert", assembly.catalog.path, "--output-path", archive.path,
                "--transform-for-static-hosting", "--hosting-base-path", "docs/\(language.rawValue)",
                "--fallback-display-name", TutorialCatalog.name,
                "--fallback-bundle-identifier", "org.sakusaku.workshop.\(language.rawValue)",
                "--default-code-listing-language", "swift", "--warnings-as-errors",
            ],
            timeout: timeout)
        guard outcome.succeeded else {
            let said = (outcome.stderr + outcome.stdout).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                description:
                    "docc convert \(assembly.catalog.path) failed (\(outcome.describeEnd(timeout: timeout))):\n"
                    + said.suffix(4000))
        }
        try TutorialRenderer.adjust(archive, for: language)
        return archive
    }

    /// Writes `output/index.html`: a link to each language's tutorials that is built there.
    public static func writeIndex(output: URL) throws {
        let built = TutorialCatalog.Language.allCases.filter {
            FileManager.default.fileExists(atPath: output.appendingPathComponent("\(entry($0))/index.html").path)
        }
        let names: [TutorialCatalog.Language: (String, String)] = [
            .en: ("en", "Sakusaku Workshop: the lessons as tutorials (English)"),
            .ja: ("ja", "サクサク ワークショップ: レッスンのチュートリアル (日本語)"),
        ]
        let links = built.compactMap { language in
            names[language].map { "<li lang=\"\($0.0)\"><a href=\"/docs/\(entry(language))\">\($0.1)</a></li>" }
        }
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Sakusaku Workshop tutorials</title></head>
            <body><h1>Sakusaku Workshop</h1>
            <ul>
            \(links.joined(separator: "\n"))
            </ul>
            </body></html>

            """
        try Data(html.utf8).write(to: output.appendingPathComponent("index.html"))
    }
}
