import Foundation

/// A folder of its own under the system's temporary folder, for files a run makes (SQLite
/// databases, an HTTP cache) and removes when it is done.
public struct ScratchFolder: Sendable, LessonSetup {
    public let url: URL

    /// Makes `sakusaku-<name>-<random>` in the temporary folder.
    public init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sakusaku-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the folder and everything in it.
    public func tearDown() { try? FileManager.default.removeItem(at: url) }
}
