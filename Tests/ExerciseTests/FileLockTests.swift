import Foundation
import Testing
import WorkshopTools

/// `FileLock`: what keeps two compiles out of one work folder, and two `workshop docs` runs out
/// of one catalog folder. Two opens of the file are two holders, in one process as in two.
@Suite("FileLock: one holder at a time, and a wait that ends")
struct FileLockTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
    }

    @Test("a held lock is not taken again until it is released")
    func heldUntilReleased() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try #require(FileLock.take(path))
        #expect(FileLock.take(path) == nil, "a second holder got a held lock")
        first.release()
        let second = try #require(FileLock.take(path), "released, but not free")
        second.release()
    }

    @Test("waiting for any of several: the free one is taken; all held, the wait ends at its timeout with nil")
    func anyOfSeveral() throws {
        let paths = [Self.path(), Self.path()]
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        let held = try #require(FileLock.take(paths[0]))
        let taken = try #require(FileLock.take(anyOf: paths, timeout: 5))
        #expect(taken.index == 1)
        #expect(FileLock.take(anyOf: paths, timeout: 0.1) == nil)
        held.release()
        taken.lock.release()
    }
}
