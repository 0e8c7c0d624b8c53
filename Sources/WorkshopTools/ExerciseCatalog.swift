import Foundation

/// One exercise: everything the `workshop` CLI, the runner and the tests know about it, read
/// from its folder, `Exercises/<folder>/`:
///
///     File.swift            the learner's file(s)
///     README.md  README.ja.md     what to do
///     hints.md   hints.ja.md      numbered hints
///     .meta/exercise.json         id, lesson, titles, files, hint count, check names
///     .meta/driver.swift          the check program's main.swift
///     .meta/*.swift               its checks, and the types the learner's files code against
///                                 (compiled with the driver and the learner's files)
///     .meta/solution/...          the reference solution
///     .meta/shipped/...           the learner's files as shipped, byte for byte (see `ShippedFiles`)
///     .meta/cases.json, cases/    the mutation cases: fixes half done, each with the check it fails
public struct Exercise: Sendable {
    /// "NN": the lesson's number ("NNa": the lesson's second exercise); "RN": an exercise tied
    /// to no lesson (R for race).
    public let id: String
    /// The English title; `titleJapanese` is the Japanese one.
    public let title: String
    public let titleJapanese: String
    /// The lesson it belongs to ("NN"), or nil.
    public let lesson: String?
    /// The folder under Exercises/.
    public let folder: String
    /// The files the learner edits, by name, inside the folder.
    public let files: [String]
    /// How many numbered hints its hints.md has.
    public let hints: Int
    /// The names of its checks, in the order the driver reports them (after the compile
    /// check): a program that stops before it reports lists them as not run. English: each
    /// check's identity; `japaneseCheckNames` has their Japanese. Both as the checks declare
    /// them (`workshop sync` writes them here; `CatalogTests` keeps them equal).
    public let checks: [String]
    public let japaneseCheckNames: [String: String]
    /// The checks the file as shipped must fail (more may fail, never fewer): what the exercise
    /// is about, proved by `workshop verify` and the tests.
    public let failsAsShipped: [String]
    /// Why the deleted-code test leaves this exercise out (nil: it does not).
    public let deletedCodeExemption: String?
    /// What the driver calls in the learner's files (said when they do not compile with it),
    /// in English and in Japanese.
    public let uses: String
    public let usesJapanese: String
    /// The driver (`.meta/driver.swift`): a main.swift compiled together with the learner's
    /// files (as module `Exercise<id>`, linked with the ExerciseSupport library), that runs the
    /// checks and reports them with `ExerciseDriver.report`.
    public let driver: String
    /// The other `.meta/*.swift` files, by name: the checks and the types the learner's files
    /// code against, compiled with the driver (not with a thread-sanitized workload).
    public let checkSources: [String: String]
    /// Also build the driver with `-sanitize=thread -D WORKLOAD_ONLY` (without the support
    /// library) and hand its path to the checks: the data-race exercise.
    public let threadSanitizedWorkload: Bool
    /// What kind of exercise it is, for tools and tests that pick one by what it is: "pure"
    /// (its checks need no network, thread or database: quick and deterministic), "timeline"
    /// (its checks record where the work ran, for `check --svg`).
    public let traits: [String]
    /// Its mutation cases (`.meta/cases.json`): fixes half done, each with the checks it must
    /// fail, and other correct fixes that must pass. One test runs them all.
    public let cases: [MutationCase]

    /// "Exercises/NN-name".
    public var directory: String { "Exercises/" + folder }
    /// The learner's files, relative to the package root.
    public var paths: [String] { files.map { directory + "/" + $0 } }
    /// The module the learner's files are compiled into.
    public var moduleName: String { "Exercise" + id }
    /// "Exercises/NN-name/.meta": the exercise's data, driver and reference.
    public var metaDirectory: String { directory + "/.meta" }
    /// "Exercises/NN-name/.meta/solution".
    public var solutionDirectory: String { metaDirectory + "/solution" }
    /// "Exercises/NN-name/.meta/shipped": the learner's files as shipped.
    public var shippedDirectory: String { metaDirectory + "/shipped" }
    /// The one command that checks it.
    public var checkCommand: String { "swift run workshop check \(id)" }
}

/// Every exercise, read from the folders under `Exercises/` (of `ExerciseRoot.current`):
/// lesson exercises in id order ("NN", "NNa", ...), then those of no lesson ("RN", ...).
/// A folder whose `.meta` cannot be read is left out, and `problems` says why.
public enum ExerciseCatalog {
    public static var exercises: [Exercise] { loaded.exercises }
    /// Why a folder under Exercises/ is not in the catalog (empty: none).
    public static var problems: [String] { loaded.problems }

    private static let loaded = load(root: ExerciseRoot.current)

    /// The exercises under `root`/Exercises.
    public static func load(root: URL) -> (exercises: [Exercise], problems: [String]) {
        let folder = root.appendingPathComponent("Exercises")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var exercises: [Exercise] = []
        var problems: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let meta = folder.appendingPathComponent(name + "/.meta")
            guard FileManager.default.fileExists(atPath: meta.appendingPathComponent("exercise.json").path) else {
                continue  // not an exercise (a file, or editor support)
            }
            do { exercises.append(try ExerciseData.read(meta, folder: name)) } catch {
                problems.append("Exercises/\(name)/.meta: \(error)")
            }
        }
        for id in Set(exercises.map(\.id)) where exercises.filter({ $0.id == id }).count > 1 {
            problems.append("two exercise folders have the id \(id)")
        }
        exercises.sort { ($0.lesson == nil ? 1 : 0, $0.id) < ($1.lesson == nil ? 1 : 0, $1.id) }
        return (exercises, problems)
    }

    /// The exercise `text` names: its id, ignoring case and a missing leading zero ("9" finds
    /// "09", "9a" finds "09a"), or its folder, as a path may end ("NN-name",
    /// "Exercises/NN-name/", "./NN-name").
    public static func exercise(id text: String) -> Exercise? {
        let folder = text.split(separator: "/").last.map(String.init) ?? text
        if let exercise = exercises.first(where: { $0.folder == folder }) { return exercise }
        let wanted = text.prefix { $0.isNumber }.count == 1 ? "0" + text : text
        return exercises.first { $0.id.lowercased() == wanted.lowercased() }
    }

    /// The exercise whose folder holds `path` (a folder or a file, absolute), under `root`.
    public static func exercise(containing path: String, root: URL) -> Exercise? {
        let exercisesFolder = root.appendingPathComponent("Exercises").standardizedFileURL.path + "/"
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path + "/"
        guard standardized.hasPrefix(exercisesFolder) else { return nil }
        let folder = standardized.dropFirst(exercisesFolder.count).split(separator: "/").first.map(String.init)
        return exercises.first { $0.folder == folder }
    }

    /// The ids, comma-separated.
    public static var ids: String { exercises.map(\.id).joined(separator: ", ") }
}

/// `.meta/exercise.json` as written in the folder.
struct ExerciseData: Decodable {
    /// A text in both languages.
    struct Texts: Decodable {
        var en: String
        var ja: String
    }
    var id: String
    var lesson: String?
    var title: Texts
    var files: [String]
    var hints: Int
    var checks: [Texts]
    var failsAsShipped: [String]
    var deletedCode: String?
    var uses: Texts
    var threadSanitizedWorkload: Bool?
    var traits: [String]?

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ meta: URL, folder: String) throws -> Exercise {
        let data: ExerciseData
        do {
            data = try JSONDecoder().decode(
                ExerciseData.self, from: try Data(contentsOf: meta.appendingPathComponent("exercise.json")))
        } catch {
            throw Problem(description: "exercise.json cannot be read: \(error)")
        }
        guard let driver = try? String(contentsOf: meta.appendingPathComponent("driver.swift"), encoding: .utf8) else {
            throw Problem(description: "driver.swift is missing")
        }
        var checkSources: [String: String] = [:]
        let metaFiles = (try? FileManager.default.contentsOfDirectory(atPath: meta.path)) ?? []
        for name in metaFiles where name.hasSuffix(".swift") && name != "driver.swift" {
            guard let text = try? String(contentsOf: meta.appendingPathComponent(name), encoding: .utf8) else {
                throw Problem(description: "\(name) cannot be read")
            }
            checkSources[name] = text
        }
        let checks = data.checks.map(\.en)
        guard !data.files.isEmpty, Set(data.files).count == data.files.count else {
            throw Problem(description: "exercise.json: 'files' must name the learner's files, each once")
        }
        guard !data.failsAsShipped.isEmpty, Set(data.failsAsShipped).isSubset(of: checks) else {
            throw Problem(description: "exercise.json: 'failsAsShipped' must name some of its 'checks'")
        }
        return Exercise(
            id: data.id, title: data.title.en, titleJapanese: data.title.ja, lesson: data.lesson, folder: folder,
            files: data.files, hints: data.hints, checks: checks,
            japaneseCheckNames: Dictionary(data.checks.map { ($0.en, $0.ja) }) { first, _ in first },
            failsAsShipped: data.failsAsShipped, deletedCodeExemption: data.deletedCode, uses: data.uses.en,
            usesJapanese: data.uses.ja, driver: driver, checkSources: checkSources,
            threadSanitizedWorkload: data.threadSanitizedWorkload ?? false, traits: data.traits ?? [],
            cases: try MutationCase.read(meta))
    }
}

/// Where the exercises are: `WORKSHOP_ROOT` when set (tests point it at a throwaway copy),
/// else the package this module was built from.
public enum ExerciseRoot {
    public static var current: URL {
        if let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        return builtFrom
    }

    /// The package root this module was compiled from.
    public static let builtFrom = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// An exercise's hints.md: numbered hints, each starting with "N. " at the start of a line.
public enum HintsFile {
    public static func hints(in text: String) -> [String] {
        var hints: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let dot = line.firstIndex(of: "."), dot > line.startIndex, line[..<dot].allSatisfy(\.isNumber),
                line[line.index(after: dot)...].hasPrefix(" ")
            {
                hints.append(String(line))
            } else if !hints.isEmpty, !line.hasPrefix("#") {
                hints[hints.count - 1] += "\n" + line
            }
        }
        return hints.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}

/// One mutation case of an exercise (`.meta/cases.json`): the learner's file in a state that
/// the checks must judge as they say: a fix half done fails the check it is about and passes
/// the others named; another correct fix passes. Written as data so that one test runs every
/// exercise's cases, and an exercise's cases live in its folder.
///
///     {"cases": [
///       {"about": "every icon added at once: more than `width` in flight",
///        "from": "solution", "replace": [["if row >= width", "if false"]],
///        "fails": ["never more than `width` fetches at once"], "passes": ["every icon on its own row"]},
///       {"about": "icons set in the order they arrive", "file": "cases/by-arrival.swift",
///        "fails": ["every icon on its own row"], "says": {"every icon on its own row": "row 2"}}
///     ]}
public struct MutationCase: Sendable, Decodable {
    /// What the case is, in a line.
    public var about: String
    /// A whole file for the learner's one file, under `.meta/` ("cases/by-arrival.swift").
    public var file: String?
    /// Else the copy it starts from, "shipped" or "solution", and the changes made to it: pairs
    /// of [old, new], each `old` found in the file.
    public var from: String?
    public var replace: [[String]]?
    /// Checks (English names) that must fail, pass, and not run.
    public var fails: [String]
    public var passes: [String]?
    public var notRun: [String]?
    /// Words a check's `got` must contain, by check name.
    public var says: [String: String]?
    /// Seconds the check program may run (default: the runner's): a case that hangs on purpose.
    public var timeout: Double?
    /// Not run by a thread-sanitized build (a check program built so has no memory limit).
    public var unlessThreadSanitized: Bool?
    /// The file's text, read from `file` when the case has one.
    public var text: String?

    static func read(_ meta: URL) throws -> [MutationCase] {
        let url = meta.appendingPathComponent("cases.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        struct File: Decodable { var cases: [MutationCase] }
        do {
            var cases = try JSONDecoder().decode(File.self, from: try Data(contentsOf: url)).cases
            for index in cases.indices {
                guard let file = cases[index].file else { continue }
                cases[index].text = try String(contentsOf: meta.appendingPathComponent(file), encoding: .utf8)
            }
            return cases
        } catch {
            throw ExerciseData.Problem(description: "cases.json cannot be read: \(error)")
        }
    }
}
