import Foundation
import WorkshopCore

/// The learner's progress: one small JSON file, `.workshop-progress`, at the package root
/// (git ignores it, so `git stash` and `git pull` leave it alone): the current exercise, and
/// per exercise the fingerprint of the files last checked, whether they passed, every version
/// that ever passed (so a file that comes back after `git stash pop` is done again without a
/// check), and how many hints were shown. It is only a cache of what the checks said: a file
/// that is missing or cannot be read is rebuilt from the checks (see `Workspace.progress()`).
struct Progress: Codable {
    struct Record: Codable {
        var checkedFingerprint: String?
        var passed = false
        var failedChecks = 0
        var hintsShown = 0
        /// The fingerprints of the versions that passed, newest last (at most `passedKept`).
        var passedFingerprints: [String] = []
        /// When the learner first started or checked it (seconds since 1970): the board shows
        /// the time spent on it.
        var startedAt: Double?
        /// When a check passed it and the time spent stopped (nil while it counts): checking a
        /// passed exercise again adds nothing. A later check that fails starts it again.
        var passedAt: Double?
        /// Seconds between a pass and a later failing check: not spent on it, not counted.
        var pausedSeconds = 0.0

        static let passedKept = 20

        init() {}

        // Every key optional: a file from an older workshop still reads.
        init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            checkedFingerprint = try values.decodeIfPresent(String.self, forKey: .checkedFingerprint)
            passed = try values.decodeIfPresent(Bool.self, forKey: .passed) ?? false
            failedChecks = try values.decodeIfPresent(Int.self, forKey: .failedChecks) ?? 0
            hintsShown = max(0, try values.decodeIfPresent(Int.self, forKey: .hintsShown) ?? 0)
            passedFingerprints = try values.decodeIfPresent([String].self, forKey: .passedFingerprints) ?? []
            startedAt = try values.decodeIfPresent(Double.self, forKey: .startedAt)
            passedAt = try values.decodeIfPresent(Double.self, forKey: .passedAt)
            pausedSeconds = max(0, try values.decodeIfPresent(Double.self, forKey: .pausedSeconds) ?? 0)
        }

        /// The time spent on it at `now`: from the start to the pass (or to now, while it
        /// counts), less the pauses between a pass and a later failure.
        func secondsSpent(now: Double) -> Double {
            guard let startedAt else { return 0 }
            return max(0, (passedAt ?? now) - startedAt - pausedSeconds)
        }

        /// Stops the time spent at a pass (the first one: a pass after a pass changes nothing),
        /// and starts it again at a failing check after a pass.
        mutating func noteTime(passed: Bool, at now: Double) {
            if passed {
                if passedAt == nil { passedAt = now }
            } else if let stopped = passedAt {
                pausedSeconds += max(0, now - stopped)
                passedAt = nil
            }
        }

        /// Forgets the time spent: the next start counts from zero (`reset`).
        mutating func forgetTime() {
            startedAt = nil
            passedAt = nil
            pausedSeconds = 0
        }

        /// Notes what a check of the files with `fingerprint` said.
        mutating func record(_ fingerprint: String?, passed: Bool, failedChecks: Int) {
            checkedFingerprint = fingerprint
            self.passed = passed
            self.failedChecks = failedChecks
            guard let fingerprint else { return }
            passedFingerprints.removeAll { $0 == fingerprint }
            if passed { passedFingerprints = Array((passedFingerprints + [fingerprint]).suffix(Self.passedKept)) }
        }
    }

    /// The exercise last checked, hinted, watched or started.
    var current: String?
    var exercises: [String: Record] = [:]
    /// The room's board this learner joined (`workshop join`), if any.
    var board: BoardMembership?

    init() {}

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        current = try values.decodeIfPresent(String.self, forKey: .current)
        exercises = try values.decodeIfPresent([String: Record].self, forKey: .exercises) ?? [:]
        // A damaged board entry only forgets the board, never the progress.
        board = try? values.decodeIfPresent(BoardMembership.self, forKey: .board)
    }

    /// Notes that the learner is on `id` now: the start of the time spent on it, if not known yet.
    mutating func markStarted(_ id: String, now: Double = Date().timeIntervalSince1970) {
        if exercises[id]?.startedAt == nil { exercises[id, default: Record()].startedAt = now }
    }

    /// What is in the progress file.
    enum Stored {
        case missing
        case unreadable
        case read(Progress)
    }

    static func read(_ file: URL) -> Stored {
        guard let data = FileManager.default.contents(atPath: file.path) else { return .missing }
        guard let progress = try? JSONDecoder().decode(Progress.self, from: data) else { return .unreadable }
        return .read(progress)
    }

    /// Moves an unreadable file aside (as `<name>.unreadable`); its new name, or nil when it could not be moved.
    static func setAside(_ file: URL) -> String? {
        let aside = file.appendingPathExtension("unreadable")
        try? FileManager.default.removeItem(at: aside)
        return (try? FileManager.default.moveItem(at: file, to: aside)) != nil ? aside.lastPathComponent : nil
    }

    func save(_ file: URL) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            Style.warnLine(localized(format: "workshop: could not save progress to %@: %@", file.path, "\(error)"))
        }
    }
}
