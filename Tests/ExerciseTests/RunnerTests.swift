import Foundation
import WorkshopCore
import XCTest

@testable import ExerciseChecks
@testable import WorkshopTools

/// The runner's own promises, whatever the exercise: builds are kept by content.
final class RunnerTests: XCTestCase {
    /// Builds are kept by what the driver was compiled against, not by the library's time: a
    /// relink that writes the same bytes keeps them, a changed module makes new ones.
    func testTheBuildCacheIsKeyedOnContentNotOnTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stamp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let modules = folder.appendingPathComponent("Modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let module = modules.appendingPathComponent("ExerciseChecks.swiftmodule")
        try Data("module v1".utf8).write(to: module)
        let runner = ExerciseRunner(
            toolchain: Toolchain(binDirectory: folder, packageRoot: folder, threadSanitizer: false))
        let first = runner.libraryStamp
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: module.path)
        XCTAssertEqual(runner.libraryStamp, first, "a new time, the same bytes: the same builds")
        try Data("module v2".utf8).write(to: module)
        XCTAssertNotEqual(runner.libraryStamp, first, "new bytes: new builds")
    }
}
