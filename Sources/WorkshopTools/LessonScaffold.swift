import Foundation

/// What `workshop new lesson NN` writes: a copy of the template lesson, renamed. The template
/// is a lesson of the package that the build compiles and the tests run like any other
/// (`Sources/LessonTemplateKit`, `Sources/lessonTemplate`, `Tests/LessonTemplateTests`; the
/// contract suite runs `lessonTemplate` too), and its texts are files beside the tool
/// (`Sources/WorkshopTools/Templates/Lesson`): the lesson text in both languages, both tutorials,
/// the picture, and what goes into the files that list the lessons (the README's table, the
/// syllabi, the tutorials' table of contents).
///
/// The copy replaces, in names and texts: "Template" with the number ("LessonTemplateKit"
/// becomes "Lesson08Kit", and "Templatea" the lesson's first exercise), "Template-title" with the
/// lesson text's name ("08-row-heights"), "the title of the lesson" and "レッスンのタイトル"
/// with the titles. `Package.swift` gets the number in its `lessons` line, and nothing else.
public struct LessonScaffold: Sendable {
    /// "08"
    public var number: String
    public var title: String
    public var titleJapanese: String

    public init(number: String, title: String, titleJapanese: String) {
        self.number = number
        self.title = title
        self.titleJapanese = titleJapanese
    }

    /// The template lesson's number, the word every name of it has where a lesson has its number.
    public static let template = "Template"
    /// The template lesson's code, copied file by file.
    public static let codeFolders = [
        "Sources/LessonTemplateKit", "Sources/lessonTemplate", "Tests/LessonTemplateTests",
    ]
    /// The template lesson's texts.
    public static let textFolder = TemplateFiles.folder + "/Lesson"

    /// "08-row-heights.md": the lesson text's name.
    public var textName: String { number + "-" + ExerciseScaffold.slug(title) + ".md" }

    /// The placeholders of the template and what they become.
    var values: [(placeholder: String, value: String)] {
        [
            ("Template-title", number + "-" + ExerciseScaffold.slug(title)), (Self.template, number),
            ("the title of the lesson", title), ("レッスンのタイトル", titleJapanese),
        ]
    }

    /// `text` (or a path) of the template, as it reads in the new lesson.
    public func renamed(_ text: String) -> String { TemplateFiles.filled(text, values) }

    /// Why these arguments make no lesson (nil: they do).
    public func problem(root: URL) -> String? {
        if number.wholeMatch(of: /[0-9]{2}/) == nil { return "a lesson's number has two digits (08)" }
        for text in [title, titleJapanese] where text.isEmpty || text.contains(where: { "\"\\%\n".contains($0) }) {
            return "a lesson's title is a line without \", \\ or % (it goes into Swift strings and formats)"
        }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/lesson" + number).path) {
            return "Sources/lesson\(number) is there already"
        }
        for folder in Self.codeFolders + [Self.textFolder] where TemplateFiles.list(folder, root: root).isEmpty {
            return "\(folder), the template lesson, is missing"
        }
        let package = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        if Self.lessons(in: package) == nil {
            return "Package.swift has no `let lessons = [\"01\", ...]` line to add \(number) to"
        }
        return nil
    }

    /// Every file, as it should be written, and the additions to the files that list lessons.
    public func files(root: URL) throws -> [ScaffoldFile] {
        var files: [ScaffoldFile] = []
        for folder in Self.codeFolders {
            for path in TemplateFiles.list(folder, root: root) {
                let text = try TemplateFiles.text(folder + "/" + path, root: root)
                files.append(ScaffoldFile(path: renamed(folder + "/" + path), text: renamed(text)))
            }
        }
        func text(_ name: String) throws -> String {
            renamed(try TemplateFiles.text(Self.textFolder + "/" + name, root: root))
        }
        files += [
            ScaffoldFile(path: "Lessons/" + textName, text: try text("text.md")),
            ScaffoldFile(path: "Lessons/ja/" + textName, text: try text("text.ja.md")),
            ScaffoldFile(path: "Lessons/images/lesson\(number).svg", text: try text("picture.svg")),
            ScaffoldFile(path: "Lessons/docc/en/lesson\(number).tutorial", text: try text("lesson.tutorial")),
            ScaffoldFile(path: "Lessons/docc/ja/lesson\(number).tutorial", text: try text("lesson.ja.tutorial")),
            ScaffoldFile(
                path: "Lessons/docc/en/Sakusaku.tutorial", text: try text("chapter.tutorial"), append: true,
                beforeLast: "}"),
            ScaffoldFile(
                path: "Lessons/docc/ja/Sakusaku.tutorial", text: try text("chapter.ja.tutorial"), append: true,
                beforeLast: "}"),
            ScaffoldFile(path: "README.md", text: try text("row.md"), append: true, after: "## Lessons", below: "| "),
            ScaffoldFile(
                path: "Lessons/README.md", text: try text("session.md"), append: true, after: "### Session R1",
                before: true),
            ScaffoldFile(
                path: "Lessons/ja/README.md", text: try text("session.ja.md"), append: true, after: "### セッション R1",
                before: true),
        ]
        return files
    }

    /// The numbers in Package.swift's `lessons` line (`let lessons = [...]`, each number two
    /// digits in quotes), or nil when it has no such line.
    static func lessons(in package: String) -> [String]? {
        guard let line = package.split(separator: "\n").first(where: { $0.hasPrefix("let lessons = [") }),
            line.hasSuffix("]")
        else { return nil }
        let list = line.dropFirst("let lessons = [".count).dropLast()
        let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.allSatisfy({ $0.wholeMatch(of: /"[0-9]{2}"/) != nil }) else { return nil }
        return items.map { String($0.dropFirst().dropLast()) }
    }

    /// Package.swift with the lesson in its `lessons` line, the numbers in order; the one line
    /// `new lesson` changes there. Nil when it has no such line.
    public func package(_ text: String) -> String? {
        guard let numbers = Self.lessons(in: text) else { return nil }
        let list = Set(numbers + [number]).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        var lines = text.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("let lessons = [") }) else { return nil }
        lines[index] = "let lessons = [\(list)]"
        return lines.joined(separator: "\n")
    }
}
