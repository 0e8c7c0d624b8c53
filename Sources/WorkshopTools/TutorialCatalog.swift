import Foundation

/// The lessons as DocC tutorials: one catalog per language (DocC has no translations), put
/// together in a build folder from what the repository already holds, so that no exercise code
/// is copied into the tutorials by hand (the exercise's own record of its file as shipped, the
/// copy in `.meta/shipped` that `workshop sync` writes, is what a tutorial step shows):
///
/// - the tutorial texts, written for DocC: `Lessons/docc/<language>/*.tutorial` (the table of
///   contents, `Sakusaku.tutorial`, and one `lessonNN.tutorial` per lesson);
/// - the code each step shows, named by where it comes from:
///   `<id>-shipped-<File>` is exercise `<id>`'s file as shipped (`ShippedFiles`: never the
///   learner's edits), `<id>-solution-<File>` its reference (`.meta/solution/<File>`), and any
///   other name a step written by hand between the two, in `Lessons/docc/code/`;
/// - the images, the lessons' own timelines, `Lessons/images/<name>` (DocC shows SVG as it is).
public enum TutorialCatalog {
    public enum Language: String, CaseIterable, Sendable {
        case en
        case ja
    }

    /// The catalog's name: its folder is `Sakusaku.docc`, its tutorials' URLs `/tutorials/sakusaku/...`.
    public static let name = "Sakusaku"
    /// Where the tutorial texts are, under the package root.
    public static let sourceFolder = "Lessons/docc"

    public struct Assembly: Sendable {
        /// The `.docc` folder, ready for `docc convert`.
        public let catalog: URL
        /// The tutorial files copied, e.g. "lesson03.tutorial".
        public let tutorials: [String]
        /// Every resource a tutorial names, copied into `Resources/`.
        public let resources: [String]
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the `language` catalog to `folder/Sakusaku.docc` (replacing an older one) from the
    /// package at `root`. Throws, naming the tutorial and the file, when a step or an image
    /// names a file that is not there.
    public static func assemble(_ language: Language, root: URL, into folder: URL) throws -> Assembly {
        let files = FileManager.default
        let texts = root.appendingPathComponent("\(sourceFolder)/\(language.rawValue)")
        let names = ((try? files.contentsOfDirectory(atPath: texts.path)) ?? []).filter { $0.hasSuffix(".tutorial") }
            .sorted()
        guard !names.isEmpty else {
            throw Failure(description: "\(sourceFolder)/\(language.rawValue) has no .tutorial file")
        }
        let catalog = folder.appendingPathComponent("\(name).docc")
        try? files.removeItem(at: catalog)
        let resourcesFolder = catalog.appendingPathComponent("Resources")
        try files.createDirectory(at: resourcesFolder, withIntermediateDirectories: true)
        let exercises = ExerciseCatalog.load(root: root).exercises
        var resources: [String] = []
        for tutorial in names {
            let text = try String(contentsOf: texts.appendingPathComponent(tutorial), encoding: .utf8)
            try Data(text.utf8).write(to: catalog.appendingPathComponent(tutorial))
            for resource in references(in: text) where !resources.contains(resource) {
                let data: Data
                do { data = try contents(of: resource, root: root, exercises: exercises) } catch {
                    throw Failure(description: "\(sourceFolder)/\(language.rawValue)/\(tutorial): \(error)")
                }
                try data.write(to: resourcesFolder.appendingPathComponent(resource))
                resources.append(resource)
            }
        }
        return Assembly(catalog: catalog, tutorials: names, resources: resources)
    }

    /// The files a tutorial text names: `file:` and `previousFile:` of its `@Code` steps,
    /// `source:` of its `@Image`s, in the order they first appear.
    public static func references(in text: String) -> [String] {
        var found: [String] = []
        for label in ["file", "previousFile", "source"] {
            var rest = text[...]
            while let match = rest.range(of: "\(label): \"") {
                let value = rest[match.upperBound...].prefix { $0 != "\"" }
                // `file:` also ends `previousFile:`: only a label that starts a word counts.
                let before = match.lowerBound == rest.startIndex ? " " : rest[rest.index(before: match.lowerBound)]
                if !(before.isLetter || before.isNumber), !value.isEmpty, !found.contains(String(value)) {
                    found.append(String(value))
                }
                rest = rest[match.upperBound...]
            }
        }
        return found
    }

    /// Where a resource comes from (see the type's comment).
    static func contents(of resource: String, root: URL, exercises: [Exercise]) throws -> Data {
        guard !resource.contains("/"), !resource.hasPrefix(".") else {
            throw Failure(description: "\(resource): a resource is a plain file name")
        }
        for (kind, marker) in [("shipped", "-shipped-"), ("solution", "-solution-")] {
            guard let range = resource.range(of: marker) else { continue }
            let id = String(resource[..<range.lowerBound])
            let file = String(resource[range.upperBound...])
            guard let exercise = exercises.first(where: { $0.id == id }) else {
                throw Failure(description: "\(resource): there is no exercise \(id)")
            }
            if kind == "shipped" { return try ShippedFiles.contents(exercise, file, root: root) }
            return try read(root.appendingPathComponent("\(exercise.solutionDirectory)/\(file)"), for: resource)
        }
        let isImage = [".svg", ".png", ".jpg"].contains { resource.hasSuffix($0) }
        let folder = isImage ? "Lessons/images" : "\(sourceFolder)/code"
        return try read(root.appendingPathComponent("\(folder)/\(resource)"), for: resource)
    }

    private static func read(_ url: URL, for resource: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Failure(description: "\(resource): \(url.path) is missing")
        }
        return data
    }
}
