import Foundation
import LessonTestSupport
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// The lessons' DocC tutorials in a real browser: `workshop docs` builds both archives with the
/// toolchain's docc, a fixture server serves them (`--docs`, in this process), and headless
/// chromium renders lesson 03's tutorial page. The slow tier. Skipped, saying why, without
/// chromium or the built `workshop` (see BoardBrowserSlowTests for the browser).
@Suite("Tutorials in a browser")
struct TutorialBrowserSlowTests {
    static let workshop = Subprocess.builtProduct("workshop")
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

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

    @Test(
        "workshop docs builds both archives, and lesson 03's page shows its title, steps and code in each language",
        .enabled(
            if: BoardBrowserSlowTests.browser != nil,
            "chromium is not installed: apt-get install chromium (bash .ci/setup --extras installs it)"),
        .enabled(if: workshop != nil, "the workshop program is not built: swift build"))
    func lesson03() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tutorials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = try Subprocess.run(
            try #require(Self.workshop), ["docs", "--output", folder.path],
            environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1", "LANG": "C.UTF-8"]) { $1 },
            currentDirectory: Self.packageRoot.path, timeout: 600)
        #expect(build.succeeded, "workshop docs: \(build.stdout)\(build.stderr)")
        print(build.stdout)

        let server = FixtureServer(ownRoutes: DocsSite(folder: folder).routes)
        try server.start()
        defer { server.stop() }
        let index = try RawHTTP.get(port: server.port, path: "/docs/")
        #expect(index.status == 200)
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("tutorial-screenshots")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        for page in Self.pages {
            let url = server.baseURL.absoluteString + page.path
            let dump = try BoardBrowserSlowTests.chromium(
                ["--virtual-time-budget=10000", "--dump-dom", url])
            #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
            let text = Self.text(of: dump.stdout)
            for expected in page.texts {
                #expect(
                    text.contains(expected), "\(page.language): \"\(expected)\" is not on \(url): \(text.prefix(3000))")
            }
            let screenshot = screenshots.appendingPathComponent("lesson03-\(page.language).png").path
            if let failure = try Browser.picture(
                "tutorial (\(page.language))", of: url, to: screenshot, language: page.language, height: 2000,
                budget: 10000,
                minimumBytes: 10_000, arguments: ["--hide-scrollbars"])
            {
                Issue.record(Comment(rawValue: failure))
            }
        }
    }
}
