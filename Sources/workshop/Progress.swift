import Foundation
import WorkshopCore

/// The learner's progress: one small JSON file, `.workshop-progress`, at the package root
/// (git ignores it): the current exercise, and per exercise the fingerprint of the files last
/// checked, whether they passed, and how many hints were shown. A file that cannot be read is
/// set aside (as .workshop-progress.unreadable) and a fresh one started: progress is never a
/// reason for a command to fail.
struct Progress: Codable {
    struct Record: Codable {
        var checkedFingerprint: String?
        var passed = false
        var failedChecks = 0
        var hintsShown = 0

        init() {}

        // Every key optional: a file from an older workshop still reads.
        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            checkedFingerprint = try values.decodeIfPresent(String.self, forKey: .checkedFingerprint)
            passed = try values.decodeIfPresent(Bool.self, forKey: .passed) ?? false
            failedChecks = try values.decodeIfPresent(Int.self, forKey: .failedChecks) ?? 0
            hintsShown = max(0, try values.decodeIfPresent(Int.self, forKey: .hintsShown) ?? 0)
        }
    }

    /// The exercise last checked, hinted, watched or started.
    var current: String?
    var exercises: [String: Record] = [:]

    init() {}

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        current = try values.decodeIfPresent(String.self, forKey: .current)
        exercises = try values.decodeIfPresent([String: Record].self, forKey: .exercises) ?? [:]
    }

    /// Says once per run that the progress file was unreadable.
    private static let warned = Locked(false)

    /// The progress in `file`; empty when there is none yet or it cannot be read.
    static func load(_ file: URL) -> Progress {
        guard let data = FileManager.default.contents(atPath: file.path) else { return Progress() }
        if let progress = try? JSONDecoder().decode(Progress.self, from: data) { return progress }
        let aside = file.appendingPathExtension("unreadable")
        try? FileManager.default.removeItem(at: aside)
        let kept = (try? FileManager.default.moveItem(at: file, to: aside)) != nil
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first {
            Style.warnLine(
                "workshop: \(file.lastPathComponent) could not be read; starting a fresh one"
                    + (kept ? " (the old one is kept as \(aside.lastPathComponent))." : "."))
        }
        return Progress()
    }

    func save(_ file: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            Style.warnLine("workshop: could not save progress to \(file.path): \(error)")
        }
    }

    /// Loads, changes and saves the progress file in one step.
    static func update(_ file: URL, _ change: (inout Progress) -> Void) {
        var progress = load(file)
        change(&progress)
        progress.save(file)
    }

    /// Makes `id` the current exercise.
    static func setCurrent(_ id: String, in file: URL) {
        update(file) { $0.current = id }
    }
}
