import Foundation
import WorkshopCore

/// FNV-1a of some bytes: how the workshop tells files apart (the core's, also used for ETags).
public func fingerprint(_ data: Data) -> String { fnv1a(Array(data)) }

/// The content of files, as a short hash, for keys that must not change when only a file's
/// time does (a relink that wrote the same bytes). Remembered per file by size and time
/// within one process, so that asking again for an unchanged file costs a `stat`.
enum ContentHash {
    private struct Seen {
        var size: Int
        var modified: Date
        var hash: String
    }
    /// Shared by every thread of the process (`verify` checks several exercises at once).
    private static let seen = Locked<[String: Seen]>([:])

    /// "<FNV-1a of the bytes>", or "-" when the file cannot be read.
    static func of(file path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int, let modified = attributes?[.modificationDate] as? Date else {
            return "-"
        }
        if let known = seen.withLock({ $0[path] }), known.size == size, known.modified == modified {
            return known.hash
        }
        guard let data = FileManager.default.contents(atPath: path) else { return "-" }
        let hash = fingerprint(data)
        seen.withLock { $0[path] = Seen(size: size, modified: modified, hash: hash) }
        return hash
    }
}
