import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the built package is, as a check's compile needs it: the build folder with the
/// ExerciseSupport library and the modules it was built from, the package root (for the
/// system libraries' module maps), and whether the build is thread-sanitized.
public struct Toolchain: Sendable {
    /// `.build/debug` (or release) of the package: libExerciseSupport and `Modules/`.
    public var binDirectory: URL
    /// The package the library was built from.
    public var packageRoot: URL
    /// Built with `-sanitize=thread` (as `swift test --sanitize=thread` builds): a driver
    /// linked with the library must be too.
    public var threadSanitizer: Bool

    public init(binDirectory: URL, packageRoot: URL, threadSanitizer: Bool) {
        self.binDirectory = binDirectory
        self.packageRoot = packageRoot
        self.threadSanitizer = threadSanitizer
    }

    /// The build the running program belongs to: the folder it runs from
    /// (`WORKSHOP_BIN_DIR` overrides it), that folder's package, its sanitizer.
    public static var current: Toolchain {
        let environment = ProcessInfo.processInfo.environment
        let binDirectory =
            environment["WORKSHOP_BIN_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: runningExecutable).deletingLastPathComponent()
        return Toolchain(
            binDirectory: binDirectory, packageRoot: packageRoot(above: binDirectory) ?? ExerciseRoot.builtFrom,
            threadSanitizer: builtWithThreadSanitizer)
    }

    /// The nearest folder at or above `folder` (symbolic links resolved) with a Package.swift.
    static func packageRoot(above folder: URL) -> URL? {
        var candidate = folder.resolvingSymlinksInPath()
        while candidate.path != "/" && !candidate.path.isEmpty {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Package.swift").path) {
                return candidate
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// The library's product in Package.swift: what `swift build --product` builds.
    public static let supportProduct = "ExerciseSupport"

    #if os(macOS)
        public static let supportLibraryName = "lib\(supportProduct).dylib"
    #else
        public static let supportLibraryName = "lib\(supportProduct).so"
    #endif

    /// The library every driver links.
    public var supportLibrary: URL { binDirectory.appendingPathComponent(Self.supportLibraryName) }

    /// Whether the library on disk was built with `-sanitize=thread`: it then calls the
    /// sanitizer's `__tsan_...` hooks. (`swift test --sanitize=thread` and a later plain
    /// `swift run workshop` share the build folder but leave the library as the first built it.)
    public var libraryIsThreadSanitized: Bool? {
        guard let data = try? Data(contentsOf: supportLibrary, options: .mappedIfSafe) else { return nil }
        // The name spelled backwards, so that it is not in this module's own bytes (which are in the library).
        return data.range(of: Data(String("yrtne_cnuf_nast__".reversed()).utf8)) != nil
    }

    /// The library is there and built the way the running program was (both sanitized or neither).
    public var libraryMatches: Bool { libraryIsThreadSanitized == threadSanitizer }

    /// `-c release` when the running build is one.
    public var configuration: String { binDirectory.path.hasSuffix("/release") ? "release" : "debug" }

    /// The system libraries' module-map folders (Sources/CZlib, Sources/CSQLite): a module
    /// that imports them needs them on the search path.
    public var moduleMapDirectories: [String] {
        let sources = packageRoot.appendingPathComponent("Sources")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return names.sorted().map { sources.appendingPathComponent($0).path }.filter {
            FileManager.default.fileExists(atPath: $0 + "/module.modulemap")
        }
    }

    /// The running program's path (see `RunningProgram.path`).
    public static var runningExecutable: String { RunningProgram.path }

    /// Whether this program was built with `-sanitize=thread`.
    public static let builtWithThreadSanitizer: Bool = {
        #if os(Linux)
            return dlsym(nil, "__tsan_init") != nil
        #else
            return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
        #endif
    }()
}
