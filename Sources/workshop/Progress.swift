import Foundation

/// The learner's progress: one small JSON file, `.workshop-progress`, at the package root
/// (git ignores it). Per exercise: the fingerprint of the file last checked, whether it passed,
/// and how many hints were shown.
struct Progress: Codable {
    struct Record: Codable {
        var checkedFingerprint: String?
        var passed = false
        var failedChecks = 0
        var hintsShown = 0
    }

    var exercises: [String: Record] = [:]

    /// The progress in `file`; empty when there is none yet or it cannot be read (a broken
    /// file is set aside, not lost).
    static func load(_ file: URL) -> Progress {
        guard let data = FileManager.default.contents(atPath: file.path) else { return Progress() }
        if let progress = try? JSONDecoder().decode(Progress.self, from: data) { return progress }
        try? FileManager.default.moveItem(at: file, to: file.appendingPathExtension("unreadable"))
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
}
