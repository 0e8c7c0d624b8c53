import Foundation

/// What `workshop new lesson` writes: a new lesson that builds, runs its three variants side by
/// side, keeps the lesson contract and passes its own tests as written. Its job is a stand-in
/// (fetch the fixture API's timeline and show it as rows) with TODOs saying what to write in
/// its place. Every file the build, the tests, the texts (en, ja), the tutorials and the syllabus
/// need is written or added to here; `.github/CONTRIBUTING.md` lists what is left by hand.
public struct LessonScaffold: Sendable {
    /// "08"
    public var number: String
    public var title: String
    public var titleJapanese: String

    public init(number: String, title: String, titleJapanese: String) {
        self.number = number
        self.title = title
        self.titleJapanese = titleJapanese
    }

    var kit: String { "Lesson\(number)Kit" }
    var program: String { "lesson\(number)" }
    var tests: String { "Lesson\(number)Tests" }
    /// "08-row-heights": the lesson text's name.
    public var textName: String { number + "-" + ExerciseScaffold.slug(title) + ".md" }
    /// Figures that are the lesson's own: a name no other module declares.
    var metric: String { "lesson\(number)EntriesShown" }

    /// Why these arguments make no lesson (nil: they do).
    public func problem(root: URL) -> String? {
        if number.range(of: #"^[0-9]{2}$"#, options: .regularExpression) == nil {
            return "a lesson's number has two digits (08)"
        }
        if FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/" + program).path) {
            return "Sources/\(program) is there already"
        }
        let package = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        if package.range(of: #"let lessons = \[[^\]]*\]"#, options: .regularExpression) == nil {
            return "Package.swift has no `let lessons = [...]` list to add \(number) to"
        }
        return nil
    }

    /// Every file, as it should be written, and the additions to the files that list lessons.
    public func files(root: URL) -> [ExerciseScaffold.File] {
        typealias File = ExerciseScaffold.File
        var files = [
            File(path: "Sources/\(kit)/EntriesController.swift", text: controller),
            File(path: "Sources/\(kit)/NoThreadEntries.swift", text: noThread),
            File(path: "Sources/\(kit)/ThreadedEntries.swift", text: threaded),
            File(path: "Sources/\(kit)/AsyncEntries.swift", text: async),
            File(path: "Sources/\(kit)/EntriesRun.swift", text: run),
            File(path: "Sources/\(kit)/MetricNames.swift", text: metricNames),
            File(path: "Sources/\(kit)/Contract.swift", text: contract),
            File(path: "Sources/\(kit)/Resources/ja.lproj/Localizable.strings", text: kitStrings),
            File(path: "Sources/\(program)/Lesson\(number).swift", text: programText),
            File(path: "Sources/\(program)/Resources/ja.lproj/Localizable.strings", text: programStrings),
            File(path: "Tests/\(tests)/Lesson\(number)PairTests.swift", text: pairTests),
            File(path: "Tests/\(tests)/Lesson\(number)CancelTests.swift", text: cancelTests),
            File(path: "Lessons/" + textName, text: lessonText(japanese: false)),
            File(path: "Lessons/ja/" + textName, text: lessonText(japanese: true)),
            File(path: "Lessons/images/lesson\(number).svg", text: picture),
        ]
        for language in ["en", "ja"] {
            let japanese = language == "ja"
            files.append(
                File(path: "Lessons/docc/\(language)/lesson\(number).tutorial", text: tutorial(japanese: japanese)))
            files.append(
                File(
                    path: "Lessons/docc/\(language)/Sakusaku.tutorial", text: chapter(japanese: japanese), append: true,
                    beforeLast: "}"))
        }
        files.append(
            File(
                path: "README.md",
                text:
                    "| \(number) | `swift run \(program)` | TODO: the lesson's idea in a line. | [en](Lessons/\(textName)) · [ja](Lessons/ja/\(textName)) |\n",
                append: true, after: "## Lessons", below: "| "))
        files.append(
            File(
                path: "Lessons/README.md", text: syllabus(japanese: false), append: true, after: "### Session R1",
                before: true))
        files.append(
            File(
                path: "Lessons/ja/README.md", text: syllabus(japanese: true), append: true, after: "### セッション R1",
                before: true))
        return files
    }

    /// Package.swift with the lesson in its `lessons` list.
    public func package(_ text: String) -> String {
        guard let range = text.range(of: #"let lessons = \[[^\]]*\]"#, options: .regularExpression) else { return text }
        let list = text[range].dropLast()
        return text.replacingCharacters(in: range, with: list + ", \"\(number)\"]")
    }

    // MARK: - The kit: the lesson's idea

    var controller: String {
        """
        import WorkshopCore
        import WorkshopServer

        /// The "view controller" every variant shares: it shows "loading...", then the entries as
        /// rows. It never fetches anything; the variants decide where fetching runs. `@MainActor`,
        /// like a UIViewController: only main-thread code may call it.
        /// TODO: the lesson's own screen (what the app shows its user), in place of the entries.
        @MainActor
        public final class EntriesController: LessonController {
            public private(set) var entries: [TimelineEntry] = []
            public private(set) var shownAt: Double?

            override public var isFinished: Bool { super.isFinished || shownAt != nil }
            override public var progress: String { shownAt == nil ? "no entries yet" : "shown" }

            /// `reloadData` with the entries, on the main thread.
            public func show(_ entries: [TimelineEntry]) {
                trace.measure("reload") {
                    self.entries = entries
                    screen.table.reloadData(count: entries.count) { index in
                        TableRow(text: entries[index].text, detail: entries[index].user.name)
                    }
                }
                shownAt = screen.elapsed
            }
        }

        """
    }

    var noThread: String {
        """
        import Foundation
        import WorkshopCore
        import WorkshopServer

        /// The no-thread variant: the request and the parse on the main thread. The Screen cannot
        /// draw a frame until the answer is in. TODO: the article's blocking version of the job.
        public enum NoThreadEntries {
            @MainActor
            public static func run(_ controller: EntriesController, endpoint: FixtureEndpoint, count: Int) {
                guard !controller.isCancelled else { return }  // before the request
                let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
                let entries: [TimelineEntry]
                do {
                    entries = try controller.trace.measure("fetch entries") { () throws(FetchError) in
                        try EntriesRun.decode(try fetcher.fetchBlocking(EntriesRun.url(endpoint, count: count)))
                    }
                } catch {
                    return controller.fail("\\(error)")
                }
                guard !controller.isCancelled else { return }  // before the show
                controller.show(entries)
            }
        }

        """
    }

    var threaded: String {
        """
        import Dispatch
        import Foundation
        import WorkshopCore
        import WorkshopServer

        /// The threaded variant, the 2010 way: the same blocking request on a queue of its own, the
        /// result handed to the main queue. A cancel: every block checks the shared token before its
        /// side effect (the request, the show), and cancelling it also cancels the request in flight;
        /// a dispatch group says when the last block has ended. TODO: the article's threaded version.
        public struct ThreadedEntries: Sendable {
            let queue = DispatchQueue.named("entries-queue")
            let token = CancelToken()
            let work = DispatchGroup()

            public init() {}

            /// Called on the main thread; returns at once. The work finishes later, on main.
            @MainActor
            public func start(_ controller: EntriesController, endpoint: FixtureEndpoint, count: Int) {
                controller.onCancel { token.cancel() }
                controller.workInFlight = { work.wait(timeout: .now()) == .timedOut }
                controller.showLoading()
                let trace = controller.trace
                let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
                queue.async(group: work) {
                    guard !token.isCancelled else { return }  // before the request
                    let result = Result { () throws(FetchError) in
                        try trace.measure("fetch entries") { () throws(FetchError) in
                            try EntriesRun.decode(
                                try fetcher.fetchBlocking(EntriesRun.url(endpoint, count: count), cancelToken: token))
                        }
                    }
                    DispatchQueue.main.async(group: work) {
                        guard !token.isCancelled else { return }  // before the show: too late is no news
                        switch result {
                        case .success(let entries): controller.show(entries)
                        case .failure(let error): controller.fail("\\(error)")
                        }
                    }
                }
            }
        }

        """
    }

    var async: String {
        """
        import Foundation
        import WorkshopCore
        import WorkshopServer

        /// The async variant, the Swift 6 way: a task on the main actor awaits the request (the main
        /// thread draws meanwhile), the parse runs off the main actor, the show on it. A cancel
        /// cancels the task; every step after an `await` checks it. TODO: the job in Swift 6.
        public struct AsyncEntries: Sendable {
            public init() {}

            /// Called on the main thread; returns at once. The task finishes the work, on main.
            @MainActor
            public func start(_ controller: EntriesController, endpoint: FixtureEndpoint, count: Int) {
                controller.showLoading()
                let trace = controller.trace
                let fetcher = HTTPFetcher(timeout: endpoint.timeoutSeconds)
                controller.startTask {
                    let entries: [TimelineEntry]
                    do {
                        let data = try await trace.measure("fetch entries", lane: Trace.awaitingLane) {
                            () async throws(FetchError) in try await fetcher.fetch(EntriesRun.url(endpoint, count: count))
                        }
                        guard !Task.isCancelled else { return }
                        entries = try await Self.parse(data, trace: trace)
                    } catch {
                        return controller.fail("\\(error)")
                    }
                    guard !Task.isCancelled else { return }  // before the show
                    controller.show(entries)
                }
            }

            /// `@concurrent`: the parse runs off the main actor, in the task pool. (Merely
            /// `nonisolated`, it would run on its caller's actor, the main actor, since Package.swift
            /// turns on `NonisolatedNonsendingByDefault`.)
            @concurrent
            static func parse(_ data: Data, trace: Trace) async throws(FetchError) -> [TimelineEntry] {
                try trace.measure("parse entries", lane: "task pool") { () throws(FetchError) in try EntriesRun.decode(data) }
            }
        }

        """
    }

    var run: String {
        """
        import Foundation
        import WorkshopCore
        import WorkshopServer

        /// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
        let localized = LocalizedTexts { .module }

        /// What a lesson \(number) run leaves behind besides its metrics: the rows every variant must agree on.
        public struct EntriesDetails: Sendable {
            public var rows: [TableRow]
        }

        /// Runs one variant of lesson \(number) against an endpoint and adds the lesson's own metrics.
        public enum EntriesRun {
            public struct Settings: Sendable {
                public var count = 20
                public var output = ScreenOutput.silent
                /// Upper bound for the whole run; a run that has not finished by then has failed.
                public var timeoutSeconds = 60.0
                /// The user taps Cancel this many seconds in (`--cancel-after`); nil: never.
                public var cancelAfter: Double?
                public init() {}
            }

            /// Call on the main thread: it serves the main run loop until the variant has finished.
            @MainActor
            public static func perform(_ variant: Variant, endpoint: FixtureEndpoint, settings: Settings)
                -> VariantRun<EntriesDetails>
            {
                let controller = EntriesController(title: "entries (\\(variant.rawValue))", output: settings.output)
                var run = VariantRun.perform(
                    variant.rawValue, controller: controller, timeout: settings.timeoutSeconds,
                    cancelAfter: settings.cancelAfter, endpoint: endpoint,
                    details: EntriesDetails(rows: controller.screen.table.rows)
                ) {
                    switch variant {
                    case .noThread: NoThreadEntries.run(controller, endpoint: endpoint, count: settings.count)
                    case .threaded: ThreadedEntries().start(controller, endpoint: endpoint, count: settings.count)
                    case .async: AsyncEntries().start(controller, endpoint: endpoint, count: settings.count)
                    }
                }
                run.metrics.append((.\(metric), .count(controller.entries.count)))
                return run
            }

            /// GET /timeline?count=N on the endpoint.
            static func url(_ endpoint: FixtureEndpoint, count: Int) -> URL { endpoint.url("/timeline?count=\\(count)") }

            /// The entries in an answer, or why not.
            static func decode(_ data: Data) throws(FetchError) -> [TimelineEntry] {
                do { return try JSONDecoder().decode([TimelineEntry].self, from: data) } catch {
                    throw .malformed(localized("not the entries' JSON (%@)", "\\(error)"), url: "/timeline")
                }
            }

            /// What the numbers mean, written from them. TODO: the lesson's own conclusion.
            public static func takeaway(_ runs: [VariantRun<EntriesDetails>]) -> String {
                guard let plain = runs.run(.noThread), let moved = runs.run(.threaded) ?? runs.run(.async) else {
                    return localized("Run all variants (the default) to compare them.")
                }
                return localized(
                    "Off the main thread, the worst freeze went from %.2f s to %.3f s; the network took as long.",
                    plain.screen.maxStallSeconds, moved.screen.maxStallSeconds)
            }
        }

        """
    }

    /// The name's declaration, spelt so that this file declares no name itself (MetricNameTests).
    var declaration: String { "Metric" + "Name(\"\(metric)\")" }

    var metricNames: String {
        """
        import WorkshopCore

        /// Lesson \(number)'s own figures, in its table and `--json` (the ones several lessons share are
        /// in WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
        /// `MetricNameTests` keeps every name unique across the modules. TODO: the lesson's figures.
        extension MetricName {
            public static let \(metric) = \(declaration)
        }

        """
    }

    var contract: String {
        """
        import WorkshopCore
        import WorkshopServer

        /// The numbers lesson \(number)'s own flags take (the program's `--help` and `validate()` use them).
        public enum Lesson\(number)Flags {
            public static let count = FlagRange("--count", 1...200)
        }

        extension LessonContract {
            /// What `lesson\(number)` promises (`lesson\(number) --contract`; the lesson contract suite
            /// checks it). TODO: the lesson's own flags, figures, help and Japanese phrases.
            public static let lesson\(number) = LessonContract(
                number: "\(number)", title: \(ExerciseSync.json(title)),
                quick: ["--count", "4", "--latency", "0.02"],
                metrics: [.\(metric)],
                flags: NetworkFlags.contract + [Lesson\(number)Flags.count.contract],
                help: ["Timeline entries to fetch (1-200)."],
                japaneseHelp: ["取得するタイムラインの投稿数(1〜200)"],
                network: Network(
                    latency: 0.15, bandwidth: 50_000,
                    causes: [
                        "corrupt-gzip": "unencoding", "truncated-gzip": "not what we expected",
                        "malformed": "not what we expected",
                    ],
                    firstPath: "/timeline", faultsNamePath: true),
                // A slow answer, so that the tap comes while the request is out.
                cancel: ["--latency", "0.5", "--cancel-after", "0.1"],
                japanese: [JapaneseRun(["レッスン \(number): ", "時間の使われ方", "マシン: ", "指標"])])
        }

        """
    }

    var kitStrings: String {
        """
        /* Lesson \(number)'s kit: its texts in Japanese (key: the English text). TODO: the lesson's own. */
        "not the entries' JSON (%@)" = "投稿の JSON ではありません(%@)";
        "Run all variants (the default) to compare them." = "比べるには 3 つのバリアントをすべて実行してください(既定の動作です)。";
        "Off the main thread, the worst freeze went from %.2f s to %.3f s; the network took as long." = "メインスレッドの外に出すと、最悪のフリーズは %.2f 秒から %.3f 秒になりました。ネットワークにかかる時間は同じです。";

        """
    }

    // MARK: - The program

    var programText: String {
        """
        import ArgumentParser
        import Foundation
        import \(kit)
        import WorkshopCore
        import WorkshopServer

        /// This module's texts (its `Resources/ja.lproj/Localizable.strings`).
        private let localized = LocalizedTexts { .module }

        @main
        struct Lesson\(number): LessonProgram, NetworkDefaults {
            static let configuration = commandConfiguration(
                abstract: localized(\(ExerciseSync.json(title + ": the timeline's entries, fetched on the main thread, then off it."))),
                discussion: localized(
                    "TODO: what each variant does, in two sentences: the no-thread variant fetches on the main thread, the threaded one on a queue, the async one in a task."
                ))
            static let contract = LessonContract.lesson\(number)

            @OptionGroup var common: LessonOptions
            @OptionGroup var network: NetworkOptions<Lesson\(number)>

            @Option(Lesson\(number)Flags.count, help: localized("Timeline entries to fetch"), valueName: "n")
            var count = 20

            func validate() throws { try Lesson\(number)Flags.count.check(count) }

            func prepare() throws -> FixtureEndpoint { try network.makeEndpoint() }

            func banner(_ endpoint: FixtureEndpoint) -> String {
                localized(\(ExerciseSync.json("Lesson \(number): \(title). %d entries from %@")), count, endpoint.baseURL.absoluteString)
                    + "\\n" + localized("(%@).", endpoint.linkDescription) + "\\n"
            }

            func describe(_ variant: Variant) -> String {
                switch variant {
                case .noThread: localized("no-thread: fetch and parse on the main thread")
                case .threaded: localized("threaded: fetch and parse on entries-queue, show on main")
                case .async: localized("async: await the fetch in a main-actor task, parse off main, show on main")
                }
            }

            @MainActor
            func perform(_ variant: Variant, setup endpoint: FixtureEndpoint, output: ScreenOutput)
                -> VariantRun<EntriesDetails>
            {
                var settings = EntriesRun.Settings()
                settings.count = count
                settings.output = output
                settings.cancelAfter = common.cancelAfter
                settings.timeoutSeconds = 2 * endpoint.timeoutSeconds + endpoint.knobs.latencySeconds + 10
                return EntriesRun.perform(variant, endpoint: endpoint, settings: settings)
            }

            func parameters(_ endpoint: FixtureEndpoint) -> [(MetricName, Metric)] {
                [(.items, .count(count))] + endpoint.parameters
            }

            func takeaway(_ runs: [VariantRun<EntriesDetails>]) -> String { EntriesRun.takeaway(runs) }
        }

        """
    }

    var programStrings: String {
        """
        /* lesson\(number): its texts in Japanese (key: the English text). TODO: the lesson's own. */
        \(ExerciseSync.json(title + ": the timeline's entries, fetched on the main thread, then off it.")) = \(ExerciseSync.json(titleJapanese + ": タイムラインの投稿を、メインスレッドで取得し、次にメインスレッドの外で取得します。"));
        "TODO: what each variant does, in two sentences: the no-thread variant fetches on the main thread, the threaded one on a queue, the async one in a task." = "TODO: 各バリアントが何をするかを 2 文で。no-thread はメインスレッドで、threaded はキューで、async はタスクで取得します。";
        "Timeline entries to fetch" = "取得するタイムラインの投稿数";
        \(ExerciseSync.json("Lesson \(number): \(title). %d entries from %@")) = \(ExerciseSync.json("レッスン \(number): \(titleJapanese)。%2$@ から投稿を %1$d 件取得します"));
        "(%@)." = "(%@)。";
        "no-thread: fetch and parse on the main thread" = "no-thread: メインスレッドで取得してパースします";
        "threaded: fetch and parse on entries-queue, show on main" = "threaded: entries-queue で取得してパースし、メインで表示します";
        "async: await the fetch in a main-actor task, parse off main, show on main" = "async: メインアクターのタスクで取得を await し、メインの外でパースし、メインで表示します";

        """
    }

    // MARK: - The tests

    var pairTests: String {
        """
        import Foundation
        import \(kit)
        import LessonTestSupport
        import WorkshopCore
        import XCTest

        /// The same job through the three variants, side by side: the same rows, and where the work
        /// ran. XCTest: the runs need the real main thread and its run loop. TODO: the lesson's own
        /// pair, with what moving the work off main buys as a generous ratio on injected latency.
        final class Lesson\(number)PairTests: XCTestCase {
            private var server: TestServer!

            override func setUpWithError() throws { server = try TestServer(latency: 0.1) }
            override func tearDown() { server.stop() }

            private func run(_ variant: Variant) -> VariantRun<EntriesDetails> {
                var settings = EntriesRun.Settings()
                settings.count = 10
                settings.timeoutSeconds = 30
                let endpoint = server.endpoint
                return MainActor.assumeIsolated { EntriesRun.perform(variant, endpoint: endpoint, settings: settings) }
            }

            /// The lanes the request and the decoding ran in, from the run's trace.
            private func lanes(_ run: VariantRun<EntriesDetails>) -> Set<String> {
                Set(run.trace.recorded.filter { ["fetch entries", "parse entries"].contains($0.name) }.map(\\.lane))
            }

            func testEveryVariantShowsTheSameRowsAndOnlyTheNoThreadOneWorksOnMain() throws {
                let runs = Variant.allCases.map { run($0) }
                for run in runs { XCTAssertNil(run.failure, run.name) }
                XCTAssertEqual(runs[0].details.rows.count, 10)
                for run in runs.dropFirst() { XCTAssertEqual(run.details.rows, runs[0].details.rows, run.name) }
                // Where the work ran decides, not how long a frame took: on a busy machine any
                // variant's frames can come late, but a span recorded on "main" ran there.
                XCTAssertEqual(lanes(runs[0]), ["main"], "no-thread fetches on the main thread")
                for run in runs.dropFirst() {
                    XCTAssertFalse(lanes(run).contains("main"), "\\(run.name) ran on \\(lanes(run))")
                }
                // The no-thread variant waited out the 0.1 s latency on main: a freeze at least that
                // long (load can only lengthen it).
                XCTAssertGreaterThanOrEqual(runs[0].screen.maxStallSeconds, 0.09)
            }
        }

        """
    }

    var cancelTests: String {
        """
        import \(kit)
        import LessonTestSupport
        import WorkshopCore
        import XCTest

        /// What a cancel promises in lesson \(number), at random points (the seed is printed;
        /// `SAKUSAKU_SEED=N` repeats them): nothing sent or shown after the tap, for every variant.
        final class Lesson\(number)CancelTests: XCTestCase {
            private var server: TestServer!

            override func setUpWithError() throws { server = try TestServer(latency: 0.05) }
            override func tearDown() { server.stop() }

            private func run(_ variant: Variant, cancelAfter: Double) -> VariantRun<EntriesDetails> {
                var settings = EntriesRun.Settings()
                settings.cancelAfter = cancelAfter
                settings.timeoutSeconds = 30
                let endpoint = server.endpoint
                return MainActor.assumeIsolated { EntriesRun.perform(variant, endpoint: endpoint, settings: settings) }
            }

            func testRandomCancelPointsShowAndSendNothingAfterTheCancel() throws {
                let found = randomCancelProblems(
                    "lesson \(number) random cancels", Variant.allCases, within: 0...0.2, run: { run($0, cancelAfter: $1) },
                    problems: { run, variant in run.cancelProblems(blocking: variant == .noThread) })
                XCTAssertEqual(found, [])
            }
        }

        """
    }

    // MARK: - The texts

    func lessonText(japanese: Bool) -> String {
        if japanese {
            return """
                [English](../\(textName))

                # レッスン \(number): \(titleJapanese)

                TODO: 元になった記事(タイトルと日付)、記事が言っていること(ぼかしているところはぼかしたまま)。

                **一言でいうと:** TODO。

                ## デモ

                ```
                swift run lesson\(number)
                ```

                <!-- capture: swift run lesson\(number) (ja); frames 3 -->
                ```text
                ```

                ## コードを読む順番

                1. `Sources/\(kit)/EntriesController.swift`: 全バリアントが共有する「ビューコントローラ」。
                2. `Sources/\(kit)/NoThreadEntries.swift`、`ThreadedEntries.swift`、`AsyncEntries.swift`: 3 つのバリアント。

                """
        }
        return """
            [日本語](ja/\(textName))

            # Lesson \(number): \(title)

            TODO: the article it comes from (title and date), and what it says (hedged where it hedges).

            **The idea in one sentence:** TODO.

            ## Demo

            ```
            swift run lesson\(number)
            ```

            <!-- capture: swift run lesson\(number) (en); frames 3 -->
            ```text
            ```

            ## Read the code in this order

            1. `Sources/\(kit)/EntriesController.swift`: the "view controller" every variant shares.
            2. `Sources/\(kit)/NoThreadEntries.swift`, `ThreadedEntries.swift`, `AsyncEntries.swift`: the three variants.

            """
    }

    func syllabus(japanese: Bool) -> String {
        japanese
            ? "### レッスン \(number): \(titleJapanese)(45 分) *([\(textName)](\(textName)))*\n\n- TODO: ねらい、デモ、演習、会場への問い。\n\n"
            : "### Lesson \(number): \(title) (45 min) *([\(textName)](\(textName)))*\n\n- TODO: goals, demo, exercises, questions for the room.\n\n"
    }

    /// The tutorial walks the lesson's first exercise (`NNa`, which `workshop new exercise`
    /// writes next) from the file as shipped to its reference, then asks the room three questions.
    func tutorial(japanese: Bool) -> String {
        let id = number + "a"
        let t = japanese ? titleJapanese : title
        let intro =
            japanese
            ? "TODO: レッスンの考え方を 1、2 文で。\n\n        テキスト全体、デモ、会場への問いは `Lessons/ja/\(textName)` にあります。"
            : "TODO: the lesson's idea in a sentence or two.\n\n        The full text, the demos and the questions for the room are in `Lessons/\(textName)`."
        let exercise = japanese ? "演習 \(id): TODO" : "Exercise \(id): TODO"
        let steps =
            japanese
            ? [
                "`swift run lesson\(number)` を実行して、タイムラインを読みます。", "配布時のファイル: `swift run workshop check \(id)` は失敗します。",
                "TODO(1) を直します。", "もう一度チェックすると、すべてのチェックが通ります。",
            ]
            : [
                "Run `swift run lesson\(number)` and read its timeline.",
                "The file as shipped: `swift run workshop check \(id)` fails.", "Fix TODO(1).",
                "Check again: every check passes.",
            ]
        let question = japanese ? "TODO: レッスンの考え方についての問い" : "TODO: a question on the lesson's idea"
        let right = japanese ? "TODO: 正しい答え" : "TODO: the right answer"
        let wrong = japanese ? "TODO: まちがった答え" : "TODO: a wrong answer"
        let why = japanese ? "TODO: なぜか。" : "TODO: why."
        let questions = (1...3).map { _ in
            """
                    @MultipleChoice {
                        \(question)

                        @Choice(isCorrect: true) {
                            \(right)

                            @Justification(reaction: "\(japanese ? "正解です。" : "Right.")") {
                                \(why)
                            }
                        }

                        @Choice(isCorrect: false) {
                            \(wrong)

                            @Justification(reaction: "\(japanese ? "違います。" : "Not quite.")") {
                                \(why)
                            }
                        }
                    }
            """
        }.joined(separator: "\n\n")
        return """
            @Tutorial(time: 45) {
                @Intro(title: \(ExerciseSync.json((japanese ? "レッスン \(number): " : "Lesson \(number): ") + t))) {
                    \(intro)
                }

                @Section(title: \(ExerciseSync.json(exercise))) {
                    @ContentAndMedia {
                        TODO: \(japanese ? "演習が何をするか。" : "what the exercise is about.")

                        @Image(source: "lesson\(number).svg", alt: "lesson\(number)")
                    }

                    @Steps {
                        @Step {
                            \(steps[0])

                            @Image(source: "lesson\(number).svg", alt: "lesson\(number)")
                        }

                        @Step {
                            \(steps[1])

                            @Code(name: "Solution.swift", file: "\(id)-shipped-Solution.swift")
                        }

                        @Step {
                            \(steps[2])

                            @Code(name: "Solution.swift", file: "\(id)-solution-Solution.swift", previousFile: "\(id)-shipped-Solution.swift")
                        }

                        @Step {
                            \(steps[3])

                            @Code(name: "Solution.swift", file: "\(id)-solution-Solution.swift")
                        }
                    }
                }

                @Assessments {
            \(questions)
                }
            }

            """
    }

    /// The tutorial's chapter in the table of contents.
    func chapter(japanese: Bool) -> String {
        """

            @Chapter(name: \(ExerciseSync.json(japanese ? titleJapanese : title))) {
                TODO: \(japanese ? "1 文で。" : "in a sentence.")

                @Image(source: "lesson\(number).svg", alt: "lesson\(number)")

                @TutorialReference(tutorial: "doc:lesson\(number)")
            }

        """
    }

    /// A picture the lesson text and its tutorial show until the lesson draws its own
    /// (`swift run lesson\(number) --svg Lessons/images/lesson\(number).svg`).
    var picture: String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 80" width="640" height="80">
          <rect width="640" height="80" fill="#f9fafb"/>
          <text x="20" y="45" font-size="18" fill="#111827">TODO: swift run lesson\(number) --svg Lessons/images/lesson\(number).svg</text>
        </svg>

        """
    }
}
