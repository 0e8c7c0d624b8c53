import ExerciseChecks
import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ExerciseRunner {
    enum Variant: String {
        /// The driver and the learner's files, linked with the support library.
        case checks
        /// The same, thread-sanitized, without the library (`-D WORKLOAD_ONLY`): a
        /// sanitized program must not load an unsanitized library, or it sees no race.
        case threadSanitizedWorkload = "tsan"
    }

    struct Built {
        var path: String
        var fresh: Bool
    }

    /// Where the builds are kept: in the build folder, so `rm -rf .build` clears them too.
    public var cacheDirectory: URL { toolchain.binDirectory.appendingPathComponent("exercise-checks") }

    /// The compiler's cache of the C and system modules a check imports (Foundation's, SQLite's,
    /// zlib's), kept with the builds rather than in `~/.cache/clang`, so `rm -rf .build` clears
    /// it too. Its entries are keyed by the compile's flags, the work folder's path among them
    /// (`-debug-prefix-map`): see `buildSlots`.
    var moduleCache: URL { cacheDirectory.appendingPathComponent("ModuleCache") }

    /// The folders a compile works in (`slot-0` …), a few with fixed names, each held with a
    /// `FileLock` for the compile. A folder of its own per compile (a UUID) gave every compile
    /// other flags, so every check a learner ran wrote 17 MB more of module cache that nothing
    /// read again (measured: three checks of 02, three new entries; a day of CI runs filled
    /// 75 GB). With fixed names there are at most `buildSlots` entries.
    static let buildSlots = 4

    /// The language a learner's file is compiled in: the package's own (Package.swift), Swift 6
    /// with the two upcoming features Xcode 26's "Approachable Concurrency" turns on in a new app
    /// project (off in Swift 6.2 and 6.3 unless asked for). A `nonisolated` async function runs on
    /// its caller's actor and `@concurrent` is how such a function leaves it (SE-0461), and a
    /// conformance may take its type's isolation (SE-0470). The editor's flags
    /// (`compile_flags.txt`) say the same.
    public static let languageFlags = [
        "-swift-version", "6", "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
        "-enable-upcoming-feature", "InferIsolatedConformances",
    ]

    /// Where a compile finds what the driver and the checks import: the package's built modules
    /// and the system libraries' module maps.
    var moduleSearchPaths: [String] {
        ["-I", toolchain.binDirectory.path + "/Modules"] + toolchain.moduleMapDirectories.flatMap { ["-I", $0] }
    }

    /// The flags of a check program's compile (the build's identity holds them too).
    func arguments(_ exercise: Exercise, _ variant: Variant) -> [String] {
        var arguments =
            Self.languageFlags + [
                "-suppress-warnings", "-diagnostic-style=llvm", "-Onone", "-g", "-module-name", exercise.moduleName,
            ]
        switch variant {
        case .checks:
            let bin = toolchain.binDirectory.path
            arguments += moduleSearchPaths
            arguments += ["-L", bin, "-l" + Toolchain.supportProduct, "-Xlinker", "-rpath", "-Xlinker", bin]
            if toolchain.threadSanitizer { arguments.append("-sanitize=thread") }
        case .threadSanitizedWorkload:
            arguments += ["-sanitize=thread", "-D", "WORKLOAD_ONLY"]
        }
        return arguments
    }

    /// Compiles the files with the driver, or finds the build of the same files made before.
    func build(_ exercise: Exercise, sources: [String: Data], variant: Variant) -> Result<Built, BuildFailure> {
        let arguments = arguments(exercise, variant)
        // Everything the program depends on: the sources, the flags, and the library build.
        var identity = Data((arguments + [exercise.driver, libraryStamp]).joined(separator: "\0").utf8)
        if variant == .checks {
            for name in exercise.checkSources.keys.sorted() {
                identity += Data("\0\(name)\0\(exercise.checkSources[name] ?? "")".utf8)
            }
        }
        for file in exercise.files {
            identity += Data("\0\(file)\0".utf8) + (sources[file] ?? Data())
        }
        let binary = cacheDirectory.appendingPathComponent(
            "exercise\(exercise.id)-\(variant.rawValue)-\(fingerprint(identity))"
        ).path
        if FileManager.default.isExecutableFile(atPath: binary) { return .success(Built(path: binary, fresh: false)) }

        // A free folder, else wait for one as long as the compile in it may take.
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let slots = (0..<Self.buildSlots).map { cacheDirectory.appendingPathComponent("slot-\($0)") }
        guard let (index, lock) = FileLock.take(anyOf: slots.map { $0.path + ".lock" }, timeout: compileTimeout)
        else {
            return .failure(
                BuildFailure(
                    "every compile folder (\(cacheDirectory.path)/slot-*) stayed busy for \(Int(compileTimeout)) s: end the other `workshop` commands that are checking, then check again"
                ))
        }
        defer { lock.release() }
        let work = slots[index]
        defer { try? FileManager.default.removeItem(at: work) }
        do {
            try? FileManager.default.removeItem(at: work)  // what a killed compile left there
            // The same relative paths as in the package, so the compiler's messages and a
            // crash's backtrace name the learner's file as they know it.
            let folder = work.appendingPathComponent(exercise.directory)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: work.appendingPathComponent("check-driver"), withIntermediateDirectories: true)
            for file in exercise.files { try sources[file]?.write(to: folder.appendingPathComponent(file)) }
            try Data(exercise.driver.utf8).write(to: work.appendingPathComponent("check-driver/main.swift"))
            // The checks, and the types the learner's files code against: beside the driver.
            // Not in the sanitized workload, which is the learner's code and the driver alone.
            let checks = variant == .checks ? exercise.checkSources.keys.sorted() : []
            for name in checks {
                try Data((exercise.checkSources[name] ?? "").utf8).write(
                    to: work.appendingPathComponent("check-driver/" + name))
            }
            let output = "exercise\(exercise.id)"
            // One compiler job for all the files (-wmo), so that every file's errors are
            // reported, in the order the compiler finds them. Without it swiftc first ran a job
            // that only emits the module, skipping function bodies, and stopped at its errors;
            // and the jobs that compile stopped at the first that failed: a `{` missing in the
            // learner's function showed only as "extraneous '}' at top level", and an error in
            // the driver hid the learner's own. One job is also the quicker here: a fresh check of
            // a one-file exercise with a 7-line driver compiled in 1.8 s (median of 8) against
            // 2.6 s in batch mode, on 2 busy cores.
            let compile = try Subprocess.run(
                "swiftc",
                arguments + [
                    "-wmo", "-debug-prefix-map", "\(work.path)=.", "-module-cache-path", moduleCache.path, "-o",
                    output, "check-driver/main.swift",
                ]
                    + checks.map { "check-driver/" + $0 } + exercise.paths,
                currentDirectory: work.path, timeout: compileTimeout)
            guard compile.succeeded else {
                return .failure(failure(of: compile, exercise, in: work))
            }
            // Rename into place: two checks building the same files at once both succeed.
            _ = rename(work.appendingPathComponent(output).path, binary)
            prune(keeping: binary)
            return .success(Built(path: binary, fresh: true))
        } catch {
            return .failure(BuildFailure("could not compile: \(error)"))
        }
    }

    /// How many builds of one exercise (and variant) are kept: the learner's last few versions.
    static let buildsKept = 12

    /// Deletes the older builds of the same exercise and variant as `binary` beyond
    /// `buildsKept`, and the work folders (`build-…`, an hour old or more) that an interrupted
    /// compile left before compiles worked in the slots.
    func prune(keeping binary: String) {
        let files = FileManager.default
        let prefix =
            URL(fileURLWithPath: binary).lastPathComponent.split(separator: "-").dropLast()
            .joined(separator: "-") + "-"
        let names = (try? files.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []
        func modified(_ name: String) -> Date {
            let path = cacheDirectory.appendingPathComponent(name).path
            return (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? .distantPast
        }
        let builds = names.filter { $0.hasPrefix(prefix) }.map { ($0, modified($0)) }.sorted { $0.1 > $1.1 }
        let stale = names.filter { $0.hasPrefix("build-") && modified($0) < Date(timeIntervalSinceNow: -3_600) }
        for name in builds.dropFirst(Self.buildsKept).map(\.0) + stale {
            try? files.removeItem(at: cacheDirectory.appendingPathComponent(name))
        }
    }

    /// What a driver was compiled against, by content: the module files of the modules linked
    /// into the support library (SwiftPM's link list of `ExerciseSupport`, the list
    /// `ProductFreshness` reads: ExerciseChecks, WorkshopCore, WorkshopServer, the lessons' kits,
    /// not the template lesson's) and the system libraries' module maps. Without the list, every
    /// module in the build folder: a compile too many rather than a stale build. A relink that
    /// changes nothing a driver sees (same bytes, new time) keeps every build; a change to a
    /// module's declarations makes new ones. A changed function body alone needs none: the
    /// driver loads the library anew each run.
    var libraryStamp: String {
        let modules = toolchain.binDirectory.appendingPathComponent("Modules")
        let linked = ProductFreshness.linkedModules(
            of: Toolchain.supportProduct, binDirectory: toolchain.binDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: modules.path)) ?? []
        var files = names.filter { name in
            guard name.hasSuffix(".swiftmodule") else { return false }
            return linked?.contains(String(name.dropLast(".swiftmodule".count))) ?? true
        }.sorted().map { modules.appendingPathComponent($0).path }
        if files.isEmpty { files = [toolchain.supportLibrary.path] }  // another layout: the library itself
        files += toolchain.moduleMapDirectories.map { $0 + "/module.modulemap" }
        return files.map { ContentHash.of(file: $0) }.joined(separator: " ")
    }
}
