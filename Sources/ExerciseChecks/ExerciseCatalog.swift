import Foundation

/// One exercise: everything the `workshop` CLI, the runner and the tests know about it.
public struct Exercise: Sendable {
    /// "03": the lesson's number ("03a": the lesson's second, async exercise); "R1": an exercise
    /// tied to no lesson (R for race).
    public let id: String
    public let title: String
    /// The lesson it belongs to ("03"), or nil.
    public let lesson: String?
    /// The folder under Exercises/ (README.md, hints.md and the learner's files) and under
    /// Tests/ExerciseFiles/ (`shipped/` and `solution/`, each with the same file names).
    public let folder: String
    /// The files the learner edits, by name, inside the folder.
    public let files: [String]
    /// How many numbered hints its hints.md has.
    public let hints: Int
    /// The names of its checks, in the order the driver reports them (after the compile
    /// check): a program that stops before it reports lists them as not run.
    public let checks: [String]
    /// What the driver calls in the learner's files (said when they do not compile with it).
    public let uses: String
    /// The driver: a main.swift compiled together with the learner's files (as module
    /// `Exercise<id>`, linked with the ExerciseSupport library), that runs the checks and
    /// reports them with `ExerciseDriver.report`.
    public let driver: String
    /// Also build the driver with `-sanitize=thread -D WORKLOAD_ONLY` (without the support
    /// library) and hand its path to the checks: the data-race exercise.
    public let threadSanitizedWorkload: Bool

    /// "Exercises/03-icons-off-main".
    public var directory: String { "Exercises/" + folder }
    /// The learner's files, relative to the package root.
    public var paths: [String] { files.map { directory + "/" + $0 } }
    /// The module the learner's files are compiled into.
    public var moduleName: String { "Exercise" + id }
    /// "Tests/ExerciseFiles/03-icons-off-main/shipped".
    public var shippedDirectory: String { "Tests/ExerciseFiles/\(folder)/shipped" }
    public var solutionDirectory: String { "Tests/ExerciseFiles/\(folder)/solution" }
    /// The one command that checks it.
    public var checkCommand: String { "swift run workshop check \(id)" }
}

/// Every exercise, in one list: lesson exercises "01"..."07" first (a lesson's async exercise,
/// "03a", right after its first), then "R1" and "R2".
public enum ExerciseCatalog {
    public static let exercises: [Exercise] = [
        Exercise(
            id: "01", title: "the parse step as its own operation", lesson: "01", folder: "01-parse-operation",
            files: ["ParseStep.swift"], hints: 3,
            checks: [
                "waits for its fetch", "a failed fetch is passed on", "a cancelled fetch is passed on",
                "each step runs once",
            ],
            uses: "BodyProducing, ParseStepFailure, ParseStep(source:parse:) and its output",
            driver: """
                import ExerciseChecks
                import Foundation
                import WorkshopCore

                // The checks' fetch is the source your step depends on.
                extension CheckFetch: BodyProducing {}

                ExerciseDriver.report(
                    Exercise01Checks.run(
                        makeStep: { ParseStep(source: $0, parse: $1) },
                        output: { step in
                            (step as? ParseStep<AccountProfile>)?.output.map { result in
                                result.mapError { error -> any Error in
                                    switch error as? ParseStepFailure {
                                    case .sourceFailed(let why)?: Exercise01Checks.StepFailure.sourceFailed(why)
                                    case .sourceCancelled?: Exercise01Checks.StepFailure.sourceCancelled
                                    case nil: error
                                    }
                                }
                            }
                        }))

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "01a", title: "a cancel that reaches the requests", lesson: "01", folder: "01a-cancel-login",
            files: ["AccountLoader.swift"], hints: 3,
            checks: [
                "the user and the items are fetched side by side", "without a cancel, the account is shown once",
                "a failed request is thrown, not shown", "a cancel stops the requests in flight",
                "a cancel ends the call promptly", "nothing is shown after a cancel",
                "the cancel reaches the caller as CancellationError",
            ],
            uses: "AccountLoader.showAccount(from:on:), async throws on the main actor",
            driver: """
                import ExerciseChecks

                // Top-level code runs on the main actor; the checks turn the main run loop.
                ExerciseDriver.report(Exercise01aChecks.run { try await AccountLoader.showAccount(from: $0, on: $1) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "02", title: "a run-loop thread that sleeps", lesson: "02", folder: "02-sleeping-run-loop",
            files: ["WorkerThread.swift"], hints: 4,
            checks: [
                "jobs run on the worker thread, in order", "the idle thread sleeps",
                "a job posted to the idle thread starts at once", "stop() ends the thread",
            ],
            uses: "WorkerThread(), a RunLoopWorker: start(name:), post(_:) and stop(timeout:)",
            driver: """
                import ExerciseChecks

                ExerciseDriver.report(
                    Exercise02Checks.run {
                        let thread = WorkerThread()
                        thread.start(name: "exercise-02-worker")
                        return Exercise02Checks.Worker(
                            post: { thread.post($0) }, stop: { thread.stop(timeout: $0) }, turns: { thread.loopTurns })
                    })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "03", title: "icons off the main thread", lesson: "03", folder: "03-icons-off-main",
            files: ["IconLoader.swift"], hints: 3,
            checks: [
                "fetches off the main thread", "the Screen never hangs", "every icon arrives",
                "icons land on the right rows after a reload",
            ], uses: "IconLoader.loadIcons(for:into:using:imageQueue:)",
            driver: """
                import ExerciseChecks
                import Lesson03Kit
                import WorkshopCore

                ExerciseDriver.report(
                    Exercise03Checks.run { IconLoader.loadIcons(for: $0, into: $1, using: $2, imageQueue: $3) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "03a", title: "icons in a task group", lesson: "03", folder: "03a-icon-task-group",
            files: ["IconGroupLoader.swift"], hints: 4,
            checks: [
                "fetches `width` icons at once", "never more than `width` fetches at once", "every icon on its own row",
                "icons set on the main thread", "the same rows as the serial loader",
            ],
            uses: "IconGroupLoader.loadIcons(named:width:from:into:), async on the main actor",
            driver: """
                import ExerciseChecks

                // Top-level code runs on the main actor; the checks turn the main run loop.
                ExerciseDriver.report(
                    Exercise03aChecks.run { await IconGroupLoader.loadIcons(named: $0, width: $1, from: $2, into: $3) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "04", title: "gzip by hand", lesson: "04", folder: "04-gzip-by-hand",
            files: ["GzipByHand.swift"], hints: 3,
            checks: [
                "asks for gzip", "asks for identity when told to", "decodes a gzip body",
                "leaves an identity body alone", "corrupt gzip is an error", "truncated gzip is an error",
                "a dropped connection is an error",
            ],
            uses: "GzipByHand.requestHeaders(acceptGzip:) and GzipByHand.decodedBody(of:)",
            driver: """
                import ExerciseChecks
                import WorkshopCore

                ExerciseDriver.report(
                    Exercise04Checks.run(
                        headers: { GzipByHand.requestHeaders(acceptGzip: $0) },
                        decode: { try GzipByHand.decodedBody(of: $0) }))

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "05", title: "pre-load the products once", lesson: "05", folder: "05-preload-cache",
            files: ["OrderResolver.swift"], hints: 4,
            checks: [
                "every order gets its own product", "one query, however many orders",
                "an unknown product is an error, not a crash",
            ], uses: "OrderResolver.resolve(_:using:)",
            driver: """
                import ExerciseChecks
                import Lesson05Kit
                import WorkshopCore

                ExerciseDriver.report(Exercise05Checks.run { try OrderResolver.resolve($0, using: $1) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "06", title: "upsert the flags, in batches", lesson: "06", folder: "06-upsert-flags",
            files: ["FlagSaver.swift"], hints: 4,
            checks: [
                "a row that exists keeps its message", "a row that exists stays the same row (its replies survive)",
                "works under any variable limit", "multi-row statements sized from the limit, not one per pair",
            ], uses: "FlagSaver.saveFlags(_:into:)",
            driver: """
                import ExerciseChecks
                import WorkshopCore

                ExerciseDriver.report(Exercise06Checks.run { try FlagSaver.saveFlags($0, into: $1) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "06a", title: "a writer actor, one transaction a batch", lesson: "06", folder: "06a-writer-actor",
            files: ["FlagWriter.swift"], hints: 4,
            checks: [
                "a message is stored as typed, quotes and all", "saves from 8 tasks at once: every row is there",
                "a reader never sees half a batch",
                "a batch with a duplicate id is an error and saves none of its rows",
                "the writer keeps working after a failed batch",
            ], uses: "FlagWriter(path:) and its save(_:) (with await)",
            driver: """
                import ExerciseChecks

                ExerciseDriver.report(
                    await Exercise06aChecks.run { path in
                        let writer = try FlagWriter(path: path)
                        return { try await writer.save($0) }
                    })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "07", title: "Japanese line-break rules", lesson: "07", folder: "07-line-breaks",
            files: ["LineBreaker.swift"], hints: 4,
            checks: [
                "no line starts with 、。」』）！？", "the article's poem with punctuation, at 8 cells",
                "no line is wider than the width", "no character lost or moved",
                "text without closing marks fills every line",
            ], uses: "LineBreaker.wrap(_:width:)",
            driver: """
                import ExerciseChecks

                ExerciseDriver.report(Exercise07Checks.run { LineBreaker.wrap($0, width: $1) })

                """, threadSanitizedWorkload: false),
        Exercise(
            id: "R1", title: "a data race in a request counter", lesson: nil, folder: "R1-data-race",
            files: ["RequestCounter.swift"], hints: 4,
            checks: ["counts every request (plain run)", "no data race under the thread sanitizer"],
            uses: "RequestCounter() with record(_:), count(of:) and total (an actor's with await)",
            driver: """
                #if !WORKLOAD_ONLY
                    import ExerciseChecks
                #endif
                import Foundation

                // \(ExerciseR1Checks.workers) "image queues" fetch \(ExerciseR1Checks.requestsPerWorker) \
                things each and record every request in one counter,
                // while the "Screen" reads the total now and then. `await` works for a class and an actor
                // alike. Prints one line: total=... /path=...
                func workload() async -> String {
                    let counter = RequestCounter()
                    let paths = [\(ExerciseR1Checks.paths.map { "\"\($0)\"" }.joined(separator: ", "))]
                    await withTaskGroup(of: Void.self) { group in
                        for worker in 0..<\(ExerciseR1Checks.workers) {
                            group.addTask {
                                for request in 0..<\(ExerciseR1Checks.requestsPerWorker) {
                                    // The "network": 0.3-2 ms per request, different for each.
                                    usleep(UInt32(300 + (worker * 7_919 + request * 104_729) % 1_700))
                                    await counter.record(paths[(worker + request) % paths.count])
                                }
                            }
                        }
                        // Meanwhile the Screen shows the running total: reads race with writes too.
                        group.addTask {
                            for frame in 0..<\(ExerciseR1Checks.requestsPerWorker) {
                                usleep(UInt32(500 + frame * 97))
                                _ = await counter.total
                            }
                        }
                    }
                    var line = "total=\\(await counter.total)"
                    for path in paths { line += " \\(path)=\\(await counter.count(of: path))" }
                    return line
                }

                #if WORKLOAD_ONLY
                    // Unbuffered: a run that the sanitizer ends with exit code 66 still shows its counts.
                    FileHandle.standardOutput.write(Data((await workload() + "\\n").utf8))
                #else
                    if CommandLine.arguments.contains("--workload") {
                        FileHandle.standardOutput.write(Data((await workload() + "\\n").utf8))
                    } else {
                        ExerciseDriver.report(ExerciseR1Checks.run())
                    }
                #endif

                """, threadSanitizedWorkload: true),
        Exercise(
            id: "R2", title: "a cache actor that fetches twice", lesson: nil, folder: "R2-actor-reentrancy",
            files: ["AvatarCache.swift"], hints: 4,
            checks: [
                "each avatar is fetched once, however many ask at once",
                "everyone asking for a name gets the same avatar", "a cached avatar costs no fetch",
                "a failed fetch is not kept: the next ask fetches again",
            ], uses: "AvatarCache(loader:) and its avatar(for:) (with await)",
            driver: """
                import ExerciseChecks

                ExerciseDriver.report(
                    await ExerciseR2Checks.run { loader in
                        let cache = AvatarCache(loader: loader)
                        return { try await cache.avatar(for: $0) }
                    })

                """, threadSanitizedWorkload: false),
    ]

    /// The exercise whose id is `id`, ignoring case and a missing leading zero ("3" finds "03",
    /// "3a" finds "03a").
    public static func exercise(id: String) -> Exercise? {
        let wanted = id.prefix { $0.isNumber }.count == 1 ? "0" + id : id
        return exercises.first { $0.id.lowercased() == wanted.lowercased() }
    }

    /// "01, 01a, 02, 03, 03a, 04, 05, 06, 06a, 07, R1, R2".
    public static var ids: String { exercises.map(\.id).joined(separator: ", ") }
}

/// Where the exercises are: `WORKSHOP_ROOT` when set (tests point it at a throwaway copy),
/// else the package this module was built from.
public enum ExerciseRoot {
    public static var current: URL {
        if let root = ProcessInfo.processInfo.environment["WORKSHOP_ROOT"], !root.isEmpty {
            return URL(fileURLWithPath: root)
        }
        return builtFrom
    }

    /// The package root this module was compiled from.
    public static let builtFrom = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// An exercise's hints.md: numbered hints, each starting with "N. " at the start of a line.
public enum HintsFile {
    public static func hints(in text: String) -> [String] {
        var hints: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let dot = line.firstIndex(of: "."), dot > line.startIndex, line[..<dot].allSatisfy(\.isNumber),
                line[line.index(after: dot)...].hasPrefix(" ")
            {
                hints.append(String(line))
            } else if !hints.isEmpty, !line.hasPrefix("#") {
                hints[hints.count - 1] += "\n" + line
            }
        }
        return hints.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
