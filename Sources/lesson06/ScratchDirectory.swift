import Foundation

/// A fresh directory under the system's temporary directory for this run's database files,
/// removed by `remove()`: the lesson never writes into the project.
struct ScratchDirectory: Sendable {
    let url: URL

    init(prefix: String = "lesson06") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
