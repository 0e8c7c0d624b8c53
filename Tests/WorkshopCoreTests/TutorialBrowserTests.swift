import Foundation
import LessonTestSupport
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// The lessons' DocC tutorials in a real browser: `workshop docs` builds both archives with the
/// toolchain's docc (once, for both tests: docc takes minutes), a fixture server serves them
/// (`--docs`, in this process), and headless chromium renders them: lesson 03's page, and every
/// page as the room opens it on a 1280x800 projector. The slow tier, by its name: chromium and
/// docc take their time. Both need chromium (`bash .ci/setup --extras` installs it) and the built
/// `workshop`, and say so when they are missing.
///
/// The projector's test: the Japanese pages are at /docs/ja/... and DocC's own words on them
/// (its navigation, the assessments' heading, the estimated time, the button) are Japanese; no
/// page scrolls sideways. The pages are DocC's, so the test cannot put its probe in them: a page
/// of its own, served beside them (same origin), opens each one in a 1280x800 frame, waits until
/// DocC has drawn it, and writes what it measured into its own DOM, which `--dump-dom` prints.
@Suite("Tutorials in a browser", .removingTheBuiltDocs)
struct TutorialBrowserSlowTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Where `workshop docs` writes both archives for the suite; removed once it has run.
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tutorials-\(UUID().uuidString)")

    /// `workshop docs`, run once for the suite's tests, in one of the suites' shared slots.
    static let build = Task { () throws -> Subprocess.Outcome in
        let workshop = try #require(
            Subprocess.builtProduct("workshop"), "the workshop program is not built: swift build")
        return try await Subprocess.run(
            workshop, ["docs", "--output", folder.path],
            environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "LANG": "C.UTF-8"]) { $1 },
            currentDirectory: packageRoot.path, timeout: 600, in: .shared)
    }

    /// The archives' folder, served by a fixture server (`--docs`) for `body`.
    static func serving<T>(_ body: (FixtureServer, Subprocess.Outcome) async throws -> T) async throws -> T {
        let build = try await build.value
        try #require(build.succeeded, "workshop docs: \(build.stdout)\(build.stderr)")
        let server = FixtureServer(ownRoutes: DocsSite(folder: folder).routes)
        try server.start()
        defer { server.stop() }
        return try await body(server, build)
    }

    /// Headless chromium with `arguments`, waited for off Swift's pool, in one of the shared slots.
    static func chromium(_ arguments: [String], timeout: Double = Browser.timeout) async throws -> Subprocess.Outcome {
        try await Browser.cancelWhenHung {
            try await Subprocess.Slots.shared.run { try Browser.run(arguments, timeout: timeout) }
        }
    }

    /// What the rendered page must show: its title, a step's text, and a line of its code.
    struct Expected {
        var language: String
        var path: String
        var texts: [String]
    }

    static let pages = [
        Expected(
            language: "en", path: "/docs/en/tutorials/sakusaku/lesson03",
            texts: [
                "Lesson 03: GCD queues — a timeline that never freezes", "TODO(1) and TODO(2): fetch inside",
                "table.cell(forRow: index)?.icon = icon", "Check Your Understanding",
            ]),
        Expected(
            language: "ja", path: "/docs/ja/tutorials/sakusaku/lesson03",
            texts: [
                "レッスン 03: GCD のキュー — フリーズしないタイムライン", "取得を imageQueue.async { ... } の中に移し",
                "table.cell(forRow: index)?.icon = icon", "理解度を確認する",
            ]),
    ]

    /// The page's text as a reader sees it: tags dropped, the entities DocC's code uses decoded
    /// (the code is split into highlighted spans, so its lines only exist in the text).
    static func text(of dom: String) -> String {
        var text = dom.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text
    }

    /// What the probe measured on one page.
    struct Measured: Decodable, CustomStringConvertible {
        var path: String
        /// DocC drew the page (its heading and navigation) before the probe's deadline.
        var drawn: Bool
        /// `<html lang>` once the renderer ran.
        var lang: String
        var scrollWidth: Int
        var innerWidth: Int
        var clientWidth: Int
        /// The navigation bar's text (its menus are in the DOM, closed).
        var navigation: String
        /// The whole page's text.
        var text: String

        var scrollsSideways: Bool { scrollWidth > innerWidth || scrollWidth > clientWidth }

        var description: String {
            "\(path): drawn \(drawn), lang \(lang), scrollWidth \(scrollWidth), innerWidth \(innerWidth), "
                + "clientWidth \(clientWidth), navigation: \(navigation.prefix(400))"
        }
    }

    /// The probe page: `#<paths as JSON>`; each path opened in turn in a frame the projector's size.
    static let probe = #"""
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><style>
        html, body { margin: 0; padding: 0; overflow: hidden; }
        iframe { border: 0; width: 1280px; height: 800px; display: block; }
        </style></head>
        <body data-state="loading"><pre id="out"></pre>
        <script>
        const pages = JSON.parse(decodeURIComponent(location.hash.slice(1)));
        let frame = null;
        const results = [];
        // A page DocC has not drawn after this many (virtual) milliseconds is reported as not drawn.
        const patience = 20000;
        // What it has so far, written after every page: a run cut short still says where it stopped.
        window.onerror = (message) => { document.body.dataset.error = String(message); };
        function next() {
          document.getElementById("out").textContent = encodeURIComponent(JSON.stringify(results));
          if (pages.length === 0) { document.body.dataset.state = "done"; return; }
          const path = pages.shift();
          document.body.dataset.at = path;
          const started = Date.now();
          // A new frame for every page: nothing of the page before is left in it.
          if (frame) frame.remove();
          frame = document.createElement("iframe");
          frame.onload = () => look(path, started);
          frame.src = path;
          document.body.prepend(frame);
        }
        function look(path, started) {
          const page = frame.contentDocument;
          const drawn = !!(page && page.querySelector("main h1, main h2") && page.querySelector("nav"));
          if (!drawn && Date.now() - started < patience) { setTimeout(() => look(path, started), 100); return; }
          const measure = () => {
            const root = page.documentElement;
            results.push({
              path: path, drawn: drawn, lang: root.lang || "",
              scrollWidth: root.scrollWidth, innerWidth: frame.contentWindow.innerWidth, clientWidth: root.clientWidth,
              navigation: Array.from(page.querySelectorAll("nav")).map(n => n.textContent).join(" | "),
              text: page.body ? page.body.textContent : ""
            });
            next();
          };
          // Measured once its fonts are in (reading the sizes lays the page out). Not after an
          // animation frame: under chromium's virtual time a second one may never come.
          if (drawn) page.fonts.ready.then(() => setTimeout(measure, 0));
          else measure();
        }
        next();
        </script></body></html>
        """#

    static func lessonPaths(_ language: String) -> [String] {
        ["/docs/\(language)/tutorials/sakusaku"]
            + (1...7).map { "/docs/\(language)/tutorials/sakusaku/lesson0\($0)" }
    }

    @Test("workshop docs builds both archives, and lesson 03's page shows its title, steps and code in each language")
    func lesson03() async throws {
        try await Self.serving { server, build in
            print(build.stdout)
            let index = try RawHTTP.get(port: server.port, path: "/docs/")
            #expect(index.status == 200)
            let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("tutorial-screenshots")
            try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            for page in Self.pages {
                let url = server.baseURL.absoluteString + page.path
                let dump = try await Self.chromium(
                    ["--virtual-time-budget=10000", "--dump-dom", url])
                #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
                let text = Self.text(of: dump.stdout)
                for expected in page.texts {
                    #expect(
                        text.contains(expected),
                        "\(page.language): \"\(expected)\" is not on \(url): \(text.prefix(3000))")
                }
                let screenshot = screenshots.appendingPathComponent("lesson03-\(page.language).png").path
                let picture = try await Subprocess.Slots.shared.run {
                    try Browser.picture(
                        "tutorial (\(page.language))", of: url, to: screenshot, language: page.language, height: 2000,
                        budget: 10000, minimumBytes: 10_000, arguments: ["--hide-scrollbars"])
                }
                if let failure = picture {
                    Issue.record(Comment(rawValue: failure))
                }
            }
        }
    }

    @Test("Japanese pages at /docs/ja/ with DocC's labels in Japanese, and no page wider than 1280 px")
    func japaneseLabelsAndNoSidewaysScroll() async throws {
        try await Self.serving { server, build in
            try Data(Self.probe.utf8).write(to: Self.folder.appendingPathComponent("probe.html"))
            #expect(build.stdout.contains("/docs/ja/tutorials/sakusaku"), "\(build.stdout)")
            #expect(!build.stdout.contains("ja-JP"), "\(build.stdout)")
            let paths = Self.lessonPaths("ja") + Self.lessonPaths("en")
            let json = String(decoding: try JSONEncoder().encode(paths), as: UTF8.self)
            let url =
                server.baseURL.absoluteString + "/docs/probe.html#"
                + (json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? json)
            // Virtual time: the probe's waits cost no real time, and its deadline still holds.
            let dump = try await Self.chromium(
                [
                    "--window-size=\(Browser.projector.width),\(Browser.projector.height)",
                    "--virtual-time-budget=600000", "--dump-dom", url,
                ], timeout: 300)
            try #require(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
            func attribute(_ name: String) -> String {
                guard let range = dump.stdout.range(of: "data-\(name)=\"([^\"]*)\"", options: .regularExpression) else {
                    return ""
                }
                return String(dump.stdout[range].dropFirst("data-\(name)=\"".count).dropLast())
            }
            let out =
                dump.stdout.range(of: #"<pre id="out">([^<]*)</pre>"#, options: .regularExpression).map {
                    String(dump.stdout[$0].dropFirst(#"<pre id="out">"#.count).dropLast("</pre>".count))
                } ?? ""
            let measured = try JSONDecoder().decode(
                [Measured].self, from: Data((out.removingPercentEncoding ?? "[]").utf8))
            try #require(
                attribute("state") == "done",
                "the probe stopped at \(attribute("at")) \(attribute("error")); it had measured: \(measured)")
            #expect(measured.map(\.path) == paths)

            for page in measured {
                #expect(page.drawn, "DocC never drew \(page)")
                #expect(!page.scrollsSideways, "\(page.path) scrolls sideways at 1280 px: \(page)")
                #expect(page.innerWidth == Browser.projector.width, "\(page)")
            }
            for page in measured where page.path.hasPrefix("/docs/ja/") {
                #expect(page.lang == "ja-JP", "\(page)")
                // DocC's own words, in the renderer's Japanese or ours (TutorialRenderer); none in English.
                for english in ["Introduction", "Check Your Understanding", "Get started", "Estimated Time", "Chapter"]
                {
                    #expect(!page.text.contains(english), "\(page.path) still says \"\(english)\"")
                }
                #expect(page.text.contains("予測時間"), "\(page.path): no 予測時間 (estimated time)")
            }
            for page in measured where page.path.hasPrefix("/docs/ja/") && page.path.contains("/lesson") {
                // The navigation bar: the tutorial's sections, from はじめに to the questions.
                for label in ["はじめに", "理解度を確認する"] {
                    #expect(page.navigation.contains(label), "\(page.path): \(label) is not in the navigation: \(page)")
                }
                #expect(page.text.contains("手順1"), "\(page.path): no 手順1 (step 1)")
            }
            let japaneseOverview = try #require(measured.first { $0.path == "/docs/ja/tutorials/sakusaku" })
            for label in ["始める", "1章", "45分"] {
                #expect(japaneseOverview.text.contains(label), "the Japanese table of contents has no \(label)")
            }
            let englishLesson = try #require(measured.first { $0.path == "/docs/en/tutorials/sakusaku/lesson03" })
            #expect(englishLesson.lang == "en-US")
            #expect(englishLesson.navigation.contains("Introduction"), "\(englishLesson)")

            // What the room sees, for a person to look at: the Japanese lesson 03 at the projector's size.
            let screenshots = Browser.screenshotFolder()
            for (name, path) in [
                ("tutorial-ja-lesson03", "/docs/ja/tutorials/sakusaku/lesson03"),
                ("tutorial-ja-overview", "/docs/ja/tutorials/sakusaku"),
            ] {
                let file = screenshots.appendingPathComponent("\(name).png").path
                let url = server.baseURL.absoluteString + path
                let picture = try await Subprocess.Slots.shared.run {
                    try Browser.picture("tutorial", of: url, to: file, language: "ja")
                }
                if let failure = picture {
                    Issue.record(Comment(rawValue: failure))
                }
            }
        }
    }
}

/// Removes the built archives once the suite has run.
struct RemovingTheBuiltDocs: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        defer { try? FileManager.default.removeItem(at: TutorialBrowserSlowTests.folder) }
        try await function()
    }
}

extension Trait where Self == RemovingTheBuiltDocs {
    static var removingTheBuiltDocs: Self { Self() }
}
