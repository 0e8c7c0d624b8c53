import Foundation
import WorkshopCore

/// What `workshop new exercise` writes: a copy of the template exercise
/// (`Sources/WorkshopTools/Templates/Exercise`, its `meta` folder becoming `.meta`), working as
/// written: its file as shipped fails its one check, its reference passes it, `verify` says so.
/// Also its lesson text's section and the syllabus's line, when the lesson has them, and in the
/// lesson's tutorials the learner's file's name. Everything else (`list`, `check`, the tests,
/// the board) finds the folder.
///
/// The copy replaces "NNx" with the id, "NN" with the lesson, "Solution" with the type (in
/// names too), "the title of the exercise" and "演習のタイトル" with the titles (JSON-escaped in
/// `.json` files); a README's `<!-- lesson link -->` and `<!-- compiled as -->` lines become
/// the link to the lesson text and the paragraph on how `check` compiles.
public struct ExerciseScaffold: Sendable {
    /// "NNa" (a lesson's number and a letter), "RN".
    public var id: String
    /// "NN", or nil for an exercise of no lesson.
    public var lesson: String?
    public var title: String
    public var titleJapanese: String
    /// The type the learner's file declares, and the file's name (`<type>.swift`).
    public var typeName: String

    public init(id: String, lesson: String?, title: String, titleJapanese: String, typeName: String) {
        self.id = id
        self.lesson = lesson
        self.title = title
        self.titleJapanese = titleJapanese
        self.typeName = typeName
    }

    /// The template exercise.
    public static let templateFolder = TemplateFiles.folder + "/Exercise"

    /// "NNa-row-heights": the id and the title's words, lowercased, for the folder's name.
    public var folder: String { id + "-" + Self.slug(title) }

    static func slug(_ title: String) -> String {
        let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }.prefix(4)
        let ascii = words.map { String($0.unicodeScalars.filter(\.isASCII)) }.filter { !$0.isEmpty }
        return ascii.isEmpty ? "exercise" : ascii.joined(separator: "-")
    }

    var fileName: String { typeName + ".swift" }
    var directory: String { "Exercises/" + folder }

    /// Why these arguments make no exercise (nil: they do).
    public func problem(existing: [Exercise], root: URL) -> String? {
        if id.range(of: #"^([0-9]{2}[a-z]?|R[0-9]+)$"#, options: .regularExpression) == nil {
            return "an exercise's id is a lesson's number with an optional letter (NN, NNa) or R and a number (RN)"
        }
        if let lesson, !id.hasPrefix(lesson) {
            return "exercise \(id) of lesson \(lesson): its id starts with the lesson's number"
        }
        if lesson == nil, !id.hasPrefix("R") { return "an exercise of no lesson has an id that starts with R" }
        if existing.contains(where: { $0.id.lowercased() == id.lowercased() }) {
            return "there is an exercise \(id) already"
        }
        if typeName.range(of: #"^[A-Z][A-Za-z0-9]*$"#, options: .regularExpression) == nil {
            return "--type is a Swift type's name that starts with a capital letter (got '\(typeName)')"
        }
        if title.contains("\n") || titleJapanese.contains("\n") { return "a title is one line" }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(directory).path) {
            return "\(directory) is there already"
        }
        if TemplateFiles.list(Self.templateFolder, root: root).isEmpty {
            return "\(Self.templateFolder), the template exercise, is missing"
        }
        return nil
    }

    /// The placeholders of the template and what they become; in a `.json` file the titles are
    /// JSON-escaped.
    func values(json: Bool) -> [(placeholder: String, value: String)] {
        func escaped(_ text: String) -> String { json ? String(ExerciseSync.json(text).dropFirst().dropLast()) : text }
        return [
            ("NNx", id), ("NN", lesson ?? ""), ("Solution", typeName),
            ("the title of the exercise", escaped(title)), ("演習のタイトル", escaped(titleJapanese)),
        ]
    }

    /// Every file, as it should be written.
    public func files(root: URL) throws -> [ScaffoldFile] {
        var files: [ScaffoldFile] = []
        for path in TemplateFiles.list(Self.templateFolder, root: root) {
            var text = try TemplateFiles.text(Self.templateFolder + "/" + path, root: root)
            if lesson == nil { text = text.replacingOccurrences(of: "  \"lesson\": \"NN\",\n", with: "") }
            let japanese = path.hasSuffix(".ja.md")
            text = text.replacingOccurrences(
                of: "<!-- lesson link -->\n", with: lessonLink(japanese: japanese, root: root))
            text = text.replacingOccurrences(
                of: "<!-- compiled as -->\n", with: Self.compiledAs(japanese: japanese) + "\n")
            var name = TemplateFiles.filled(path, values(json: false))
            if name.hasPrefix("meta/") { name = "." + name }
            files.append(
                ScaffoldFile(
                    path: directory + "/" + name,
                    text: TemplateFiles.filled(text, values(json: path.hasSuffix(".json")))))
        }
        if let shipped = files.first(where: { $0.path == directory + "/" + fileName }) {
            // The copy as shipped, which `reset` restores (`workshop sync` writes it again after an edit).
            files.append(ScaffoldFile(path: directory + "/.meta/shipped/" + fileName, text: shipped.text))
        }
        files.append(ScaffoldFile(path: directory + "/compile_flags.txt", text: Self.compileFlags))
        if let lesson {
            func text(_ name: String) throws -> String {
                TemplateFiles.filled(
                    try TemplateFiles.text(LessonScaffold.textFolder + "/" + name, root: root), values(json: false))
            }
            for (folder, japanese) in [("Lessons", false), ("Lessons/ja", true)] {
                if let path = CatalogTexts.lessonText(lesson, in: folder, root: root) {
                    let section = try text(japanese ? "exercise-section.ja.md" : "exercise-section.md")
                    files.append(ScaffoldFile(path: path, text: section, append: true))
                }
            }
            files.append(
                ScaffoldFile(
                    path: "Lessons/README.md", text: try text("exercise-line.md"), append: true,
                    after: "### Lesson \(lesson):", below: "- Exercise "))
            files.append(
                ScaffoldFile(
                    path: "Lessons/ja/README.md", text: try text("exercise-line.ja.md"), append: true,
                    after: "### レッスン \(lesson):", below: "- 演習 "))
            files += tutorialsNamingTheFile(lesson, root: root)
        }
        return files
    }

    /// The lesson's tutorials, when they walk this exercise's file under the template's name
    /// (`new lesson` writes them for its first exercise, "Solution.swift"), with the file's name.
    func tutorialsNamingTheFile(_ lesson: String, root: URL) -> [ScaffoldFile] {
        guard typeName != "Solution" else { return [] }
        return ["en", "ja"].compactMap { language in
            let path = "Lessons/docc/\(language)/lesson\(lesson).tutorial"
            guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else {
                return nil
            }
            var renamed = text
            for kind in ["shipped", "solution"] {
                renamed = renamed.replacingOccurrences(
                    of: "\"\(id)-\(kind)-Solution.swift\"", with: "\"\(id)-\(kind)-\(fileName)\"")
            }
            renamed = renamed.replacingOccurrences(
                of: "@Code(name: \"Solution.swift\", file: \"\(id)-",
                with: "@Code(name: \"\(fileName)\", file: \"\(id)-")
            return renamed == text ? nil : ScaffoldFile(path: path, text: renamed)
        }
    }

    /// The compiler flags sourcekit-lsp uses for the folder's files (the editor sees the kit).
    public static let compileFlags =
        (ExerciseRunner.languageFlags + [
            "-module-name", "Exercises", "-I", "../../.build/debug/Modules", "-I", "../../Sources/CSQLite", "-I",
            "../../Sources/CZlib",
        ]).joined(separator: "\n") + "\n"

    /// "Lesson: [08](../../Lessons/08-topic.md)." and a blank line; nothing for no lesson.
    func lessonLink(japanese: Bool, root: URL) -> String {
        guard let lesson else { return "" }
        let folder = japanese ? "Lessons/ja" : "Lessons"
        let path = CatalogTexts.lessonText(lesson, in: folder, root: root) ?? folder + "/README.md"
        return japanese ? "レッスン: [\(lesson)](../../\(path))。\n\n" : "Lesson: [\(lesson)](../../\(path)).\n\n"
    }

    /// What every exercise's README says under "Check it": how `check` compiles the learner's
    /// file (`ExerciseRunner.languageFlags`). A paragraph, ending with a blank line.
    public static func compiledAs(japanese: Bool) -> String {
        japanese
            ? """
            `check` は、パッケージと同じ設定であなたのファイルをコンパイルします。Swift 6 言語モードに、2 つの upcoming feature、
            `NonisolatedNonsendingByDefault` と `InferIsolatedConformances` を加えた設定です(エディタもこのフォルダの
            `compile_flags.txt` から同じ設定を読みます)。Swift 6.2 と 6.3 では、指定しない限りどちらも無効です。Xcode 26 の
            ビルド設定「Approachable Concurrency」は、新しく作ったアプリのプロジェクトでこの 2 つを有効にします(そうした
            プロジェクトは既定のアクター分離も `MainActor` にすることが多いのですが、このパッケージはそうしていません)。
            この設定で何が変わるかは、各レッスンの「Approachable Concurrency を有効にすると」の節にあります。

            """
            : """
            `check` compiles your file the way the package is built: Swift 6 language mode with two upcoming
            features, `NonisolatedNonsendingByDefault` and `InferIsolatedConformances` (the editor reads the
            same from this folder's `compile_flags.txt`). Swift 6.2 and 6.3 leave them off unless asked;
            Xcode 26's "Approachable Concurrency" setting turns them on in the app projects it creates (such
            a project usually also makes `MainActor` the default isolation; this package does not). What they
            change is in each lesson's section "With Approachable Concurrency on".

            """
    }
}
