import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal pair, so a lesson run by the presenter sees a terminal (and draws its
/// live table) without touching the presenter's own. The C library's `posix_openpt`,
/// `unlockpt` and `ptsname_r` are not in Swift's Glibc module (they sit behind a feature
/// macro there), so they are looked up by name in the C library already loaded. (Elsewhere,
/// e.g. on macOS, a failed look-up only means a pipe instead: plain lines, no live table.)
enum PseudoTerminal {
    typealias OpenPT = @convention(c) (Int32) -> Int32
    typealias UnlockPT = @convention(c) (Int32) -> Int32
    typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

    static func function<F>(_ name: String, as type: F.Type) -> F? {
        // nil: search every library the program has loaded (RTLD_DEFAULT).
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// (the controlling side, the terminal side) with close-on-exec set; nil when the system
    /// gives none.
    static func openPair() -> (Int32, Int32)? {
        guard let openPT = function("posix_openpt", as: OpenPT.self),
            let unlockPT = function("unlockpt", as: UnlockPT.self),
            let name = function("ptsname_r", as: PTSName.self)
        else { return nil }
        let master = openPT(O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard unlockPT(master) == 0, name(master, &path, path.count) == 0 else {
            close(master)
            return nil
        }
        let slave = open(
            String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            return nil
        }
        for end in [master, slave] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (master, slave)
    }
}
