import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive flock(2) on a file, for work that two processes (or two threads) must not do in
/// the same folder at once: a check's compile, `workshop docs`. The kernel lets go of it however
/// the holder ends, so a killed run leaves no stale lock behind. Held until `release()`.
public struct FileLock: Sendable {
    private let descriptor: Int32

    /// The lock at `path` if no one holds it now, else nil (also when the file cannot be made).
    public static func take(_ path: String) -> FileLock? {
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return FileLock(descriptor: descriptor)
    }

    /// The first of `paths` that is free, waiting up to `timeout` seconds for one to be; nil
    /// when all were held that long. Polled (every 20 ms), so a wait can end at its deadline.
    public static func take(anyOf paths: [String], timeout: Double) -> (index: Int, lock: FileLock)? {
        let deadline = monotonicSeconds() + timeout
        while true {
            for (index, path) in paths.enumerated() {
                if let lock = take(path) { return (index, lock) }
            }
            if monotonicSeconds() >= deadline { return nil }
            usleep(20_000)
        }
    }

    public func release() { close(descriptor) }
}
