import ExerciseChecks
import Foundation
import Testing
import WorkshopTools

/// An exercise is one folder: its id and its folder's name appear nowhere in Sources/, Tests/
/// or .ci/, and no file there is named after it: its checks, its given types and its mutation
/// cases are in its own `.meta`. So adding, renaming or removing an exercise needs no edit
/// anywhere else; the tests pick their examples by what an exercise is (see `Subject` in the
/// workshop tests, and the cases the catalog holds), never by id.
struct ExerciseIdsTests {
    static let root = ExerciseRoot.builtFrom

    /// Every text file under `folder` (relative to the root), as (relative path, text).
    static func files(under folder: String) -> [(String, String)] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [(String, String)] = []
        for case let path as String in walker {
            let full = base.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isFolder), !isFolder.boolValue,
                let text = try? String(contentsOf: full, encoding: .utf8)
            else { continue }
            found.append((folder + "/" + path, text))
        }
        return found
    }

    /// Whether `path` is a file named after exercise `id`: "Exercise09aChecks.swift" for 09a
    /// (but not for 09: the letter after the id must start a new word).
    static func isNamedAfter(_ path: String, id: String) -> Bool {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let prefix = "Exercise" + id
        guard name.hasPrefix(prefix), let next = name.dropFirst(prefix.count).first else { return false }
        return next.isUppercase
    }

    /// Where `needle` starts in `text`, every time (byte offsets). C's strstr, because Foundation's
    /// substring search took 1.6 s over the tree here (7 s beside the other tests).
    static func offsets(of needle: String, in text: String) -> [Int] {
        text.withCString { haystack in
            needle.withCString { wanted in
                var found: [Int] = []
                var from = haystack
                while let hit = strstr(from, wanted) {
                    found.append(haystack.distance(to: UnsafePointer(hit)))
                    from = UnsafePointer(hit) + 1
                }
                return found
            }
        }
    }

    /// Whether `text` names exercise `id`: as a string literal ("09a"), or after a command word
    /// (`check 09a`, in a shell script), a whole id either way.
    static func names(_ text: String, _ id: String) -> Bool {
        if !offsets(of: "\"\(id)\"", in: text).isEmpty { return true }
        let bytes = Array(text.utf8)
        for word in ["check", "hint", "reset", "start", "solution", "verify", "watch"] {
            let phrase = word + " " + id
            for offset in offsets(of: phrase, in: text) {
                let end = offset + phrase.utf8.count
                guard end < bytes.count else { return true }
                let after = Character(Unicode.Scalar(bytes[end]))
                if !after.isLetter && !after.isNumber { return true }
            }
        }
        return false
    }

    @Test func noIdOrFolderOutsideItsOwnPlaces() {
        // Quoted ids are looked for where exercises are handled (a lesson's own number is not one).
        let quotedIn = [
            "Sources/workshop", "Sources/WorkshopTools", "Sources/ExerciseChecks", "Tests/ExerciseTests",
            "Tests/WorkshopTests", ".ci",
        ]
        let everywhere = ["Sources", "Tests", ".ci"].flatMap(Self.files(under:))
        var found: [String] = []
        for exercise in ExerciseCatalog.exercises {
            for (path, text) in everywhere {
                if Self.isNamedAfter(path, id: exercise.id) {
                    found.append("\(path) is named after exercise \(exercise.id)")
                }
                if !Self.offsets(of: exercise.folder, in: text).isEmpty {
                    found.append("\(path) names the folder \(exercise.folder)")
                }
                if quotedIn.contains(where: { path.hasPrefix($0 + "/") }), Self.names(text, exercise.id) {
                    found.append("\(path) names exercise \(exercise.id)")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
