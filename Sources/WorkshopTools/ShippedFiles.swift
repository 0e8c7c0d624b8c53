import Foundation
import WorkshopCore

/// The learner's files as shipped, without a second copy of them in the tree: the file in the
/// folder when it still is as shipped (its fingerprint is the one `.meta/exercise.json` keeps),
/// else the newest version in git's history with that fingerprint. So `reset`, `verify` and
/// the tests find what shipped whatever the learner did to the file, even after committing it.
public enum ShippedFiles {
    /// Why the file as shipped could not be found.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    // A lock: the versions found in git, by path and fingerprint, shared by the threads that
    // check several exercises at once.
    private static let found = Locked([String: Data]())

    /// Each of the exercise's files as shipped, by name.
    public static func sources(_ exercise: Exercise, root: URL) throws(Missing) -> [String: Data] {
        var sources: [String: Data] = [:]
        for file in exercise.files { sources[file] = try contents(exercise, file, root: root) }
        return sources
    }

    /// One file as shipped.
    public static func contents(_ exercise: Exercise, _ file: String, root: URL) throws(Missing) -> Data {
        let path = exercise.directory + "/" + file
        guard let wanted = exercise.shipped[file] else {
            throw Missing(description: "\(file) is not one of exercise \(exercise.id)'s files")
        }
        if let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path),
            fingerprint(data) == wanted
        {
            return data
        }
        let key = root.path + "\0" + path + "\0" + wanted
        if let data = found.withLock({ $0[key] }) { return data }
        guard let data = fromHistory(path, fingerprint: wanted, root: root) else {
            throw Missing(
                description: "\(path) as shipped is not in this folder's git history (fingerprint \(wanted)): "
                    + "reset needs a git clone of the workshop; `git checkout -- \(path)` brings the shipped file back")
        }
        found.withLock { $0[key] = data }
        return data
    }

    /// The newest version of `path` in git (the index, then HEAD's history) whose fingerprint
    /// is `wanted`; nil when there is none or no git.
    static func fromHistory(_ path: String, fingerprint wanted: String, root: URL) -> Data? {
        func git(_ arguments: [String]) -> Data? {
            guard
                let outcome = try? Subprocess.run("git", ["-C", root.path] + arguments, timeout: 20),
                outcome.succeeded
            else { return nil }
            // Swift source is UTF-8, so the text gives back the same bytes.
            return Data(outcome.stdout.utf8)
        }
        if let staged = git(["show", ":" + path]), fingerprint(staged) == wanted { return staged }
        guard let log = git(["log", "--format=%H", "-n", "200", "--", path]) else { return nil }
        for commit in String(decoding: log, as: UTF8.self).split(separator: "\n") {
            if let data = git(["show", "\(commit):\(path)"]), fingerprint(data) == wanted { return data }
        }
        return nil
    }
}
