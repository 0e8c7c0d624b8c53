import Foundation

/// What `workshop docs` changes in DocC-Render, the web app `docc convert` copies into every
/// archive (`css/`, `js/`, one `index.html` per page), after the conversion.
///
/// How DocC-Render picks the language of its own words (its navigation, "Check Your
/// Understanding", the estimated time, ...): from the page's path. Its routes are
/// `/:locale?/tutorials/...`; a path that starts with one of its locales (`ja-JP`, `zh-CN`,
/// `ko-KR`) speaks that locale and reads the page's data from `data/<locale>/`; any other path
/// speaks its default locale, `en-US`, fixed when the renderer was built
/// (`VUE_APP_DEFAULT_LOCALE`). Neither the catalog's Info.plist (`CFBundleDevelopmentRegion`),
/// `docc convert`'s flags nor `theme-settings.json` change it. So the Japanese archive gets a
/// renderer whose default is `ja-JP`: its pages are at `/docs/ja/tutorials/...`, as the English
/// ones are at `/docs/en/tutorials/...`, and DocC's words on them are Japanese. One word has no
/// translation in the renderer at all: the tutorial page's first section, "Introduction", is
/// written into `topic.*.js`; the Japanese archive says はじめに there.
///
/// And for both languages: every lesson page scrolled sideways by the width of its scroll bar
/// (at 1280 px as at 1400 px), because of how wide DocC makes a step's code column (see
/// `fitsTheWindow`).
///
/// Each change names the text it replaces: a renderer that no longer has it (a newer
/// toolchain) fails the build saying which change and which file, rather than serving a page
/// half in English.
public enum TutorialRenderer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One replacement in the archive: in every file of `folder` (and its subfolders when
    /// `recursive`) whose name starts with `prefix` and ends with `suffix`, `original` becomes
    /// `replacement`; `original` must be in at least one of them.
    struct Patch {
        var folder: String
        var prefix = ""
        var suffix: String
        var recursive = false
        var original: String
        var replacement: String
        /// What it is for, for the error when the renderer or docc has changed.
        var purpose: String
    }

    /// The changes for the Japanese archive: the renderer's default locale, the words the
    /// renderer has no translation for (they are in its code), and DocC's own words that
    /// `docc convert` writes into every page's data (the assessments' section, which is in the
    /// navigation too, and the button that opens the next tutorial), in the renderer's own
    /// Japanese where it has one ("理解度を確認する" is its "Check your understanding").
    static let japanese = [
        Patch(
            folder: "js", prefix: "index.", suffix: ".js", original: #"VUE_APP_DEFAULT_LOCALE??"en-US""#,
            replacement: #"VUE_APP_DEFAULT_LOCALE??"ja-JP""#,
            purpose: "DocC-Render's default locale (its words in Japanese without a ja-JP/ path)"),
        Patch(
            folder: "js", prefix: "topic.", suffix: ".js", original: #"title:"Introduction""#,
            replacement: #"title:"はじめに""#, purpose: "the navigation's first section, \"Introduction\""),
        Patch(
            folder: "js", prefix: "topic.", suffix: ".js", original: #"sectionTitle(){return"Introduction"}"#,
            replacement: #"sectionTitle(){return"はじめに"}"#, purpose: "the tutorial's first section, \"Introduction\""),
        Patch(
            folder: "js", prefix: "topic.", suffix: ".js", original: "} Tutorials`", replacement: "} チュートリアル`",
            purpose: "the page's title (\"... Tutorials\")"),
        Patch(
            folder: "js", prefix: "tutorials-overview.", suffix: ".js", original: #"[t,"Tutorials"]"#,
            replacement: #"[t,"チュートリアル"]"#, purpose: "the table of contents' title (\"... Tutorials\")"),
        // (theme-settings.json's meta.title would be the documented way, but the renderer reads
        // it once, before it has loaded the settings.)
        Patch(
            folder: "js", prefix: "index.", suffix: ".js", original: #"(["meta","title"],"Documentation")"#,
            replacement: #"(["meta","title"],"ドキュメント")"#, purpose: "the end of the page's title (\"| Documentation\")"),
        Patch(
            folder: "data", suffix: ".json", recursive: true, original: #""Check Your Understanding""#,
            replacement: #""理解度を確認する""#, purpose: "the assessments' section (\"Check Your Understanding\")"),
        Patch(
            folder: "data", suffix: ".json", recursive: true, original: #""Get started""#,
            replacement: #""始める""#, purpose: "the button that opens a tutorial (\"Get started\")"),
    ]

    /// Added at the end of the tutorial pages' stylesheet (`css/topic.*.css`), in both archives.
    /// A step's code column reaches the window's right edge by design: DocC makes it `50vw +
    /// 8.33%` wide, and `vw` counts the vertical scroll bar, so it reaches under the bar and the
    /// page scrolls sideways by the bar's width. Clipped at the page's own width (`clip` makes no
    /// scroll container, so the column still sticks while its steps scroll by).
    static let fitsTheWindow = """

        /* workshop docs: the step's code column reaches under the scroll bar (50vw counts it); clip
           it at the page's width, so the page does not scroll sideways. */
        div.tutorial { overflow-x: clip; }

        """

    /// Applies the changes for `language` to the archive `docc convert` wrote into `archive`.
    public static func adjust(_ archive: URL, for language: TutorialCatalog.Language) throws {
        try append(fitsTheWindow, toFilesIn: archive.appendingPathComponent("css"), prefix: "topic.", suffix: ".css")
        guard language == .ja else { return }
        for patch in japanese { try apply(patch, in: archive) }
        try writeTimesInJapanese(archive.appendingPathComponent("data/\(TutorialArchive.tutorialsPath).json"))
        try setPageLanguage(archive, to: "ja-JP")
    }

    /// The files of `folder` (and its subfolders when `recursive`) named `prefix...suffix`;
    /// throws when there is none.
    static func files(in folder: URL, prefix: String, suffix: String, recursive: Bool = false) throws -> [URL] {
        let names =
            recursive
            ? (FileManager.default.subpaths(atPath: folder.path) ?? [])
            : ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        let found = names.filter {
            let name = URL(fileURLWithPath: $0).lastPathComponent
            return name.hasPrefix(prefix) && name.hasSuffix(suffix)
        }.sorted()
        guard !found.isEmpty else {
            throw Failure(description: "there is no \(folder.lastPathComponent)/\(prefix)*\(suffix) in \(folder.path)")
        }
        return found.map { folder.appendingPathComponent($0) }
    }

    static func apply(_ patch: Patch, in archive: URL) throws {
        let folder = archive.appendingPathComponent(patch.folder)
        var found = false
        for file in try files(in: folder, prefix: patch.prefix, suffix: patch.suffix, recursive: patch.recursive) {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains(patch.original) else { continue }
            found = true
            try Data(text.replacingOccurrences(of: patch.original, with: patch.replacement).utf8).write(to: file)
        }
        guard found else {
            throw Failure(
                description:
                    "docc or DocC-Render has changed: \(patch.purpose) cannot be put in Japanese, no "
                    + "\(patch.folder)/\(patch.prefix)*\(patch.suffix) has `\(patch.original)` (in \(folder.path))")
        }
    }

    static func append(_ css: String, toFilesIn folder: URL, prefix: String, suffix: String) throws {
        for file in try files(in: folder, prefix: prefix, suffix: suffix) {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(css.utf8))
        }
    }

    /// The table of contents shows each tutorial's estimated time, and the total, as `docc`
    /// wrote them ("45min", "5hr 15min"); the Japanese one shows 45分 and 5時間15分. (A tutorial's
    /// own page reads its time and says it in the renderer's words already.)
    static func writeTimesInJapanese(_ overview: URL) throws {
        var text = try String(contentsOf: overview, encoding: .utf8)
        let times = try NSRegularExpression(pattern: #""estimatedTime":"(?:(\d+)hr ?)?(?:(\d+)min)?""#)
        for match in times.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text) else { continue }
            let hours = Range(match.range(at: 1), in: text).map { text[$0] + "時間" } ?? ""
            let minutes = Range(match.range(at: 2), in: text).map { text[$0] + "分" } ?? ""
            guard !(hours + minutes).isEmpty else { continue }
            text.replaceSubrange(whole, with: #""estimatedTime":""# + hours + minutes + "\"")
        }
        try Data(text.utf8).write(to: overview)
    }

    /// `<html lang="...">` in every page of the archive: what a browser knows before the
    /// renderer runs (its fonts, its hyphenation). The renderer sets the same once it runs.
    static func setPageLanguage(_ archive: URL, to locale: String) throws {
        let pages =
            FileManager.default.enumerator(at: archive, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" } ?? []
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let changed = text.replacingOccurrences(of: #"<html lang="en-US""#, with: "<html lang=\"\(locale)\"")
            if changed != text { try Data(changed.utf8).write(to: page) }
        }
    }
}
