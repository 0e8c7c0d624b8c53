import Foundation
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// The board page in a real browser: Debian's chromium, headless. Skipped, saying why, when it
/// is not installed (`bash .ci/setup --extras` installs it when it can) or outside the slow tier.
@Suite("Room board in a browser")
struct BoardBrowserTests {
    static let browser = ["chromium", "chromium-browser", "google-chrome"].first { name in
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") } ?? false
    }
    static let slowTier = ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1"

    /// Where the screenshot goes: BOARD_SCREENSHOT, else a temporary file (its path is printed).
    static let screenshot =
        ProcessInfo.processInfo.environment["BOARD_SCREENSHOT"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID().uuidString).png").path

    static func chromium(_ arguments: [String], timeout: Double = 90) throws -> Subprocess.Outcome {
        let browser = try #require(browser)
        // A profile of its own, so a test never touches (or waits for) the user's browser.
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        return try Subprocess.run(
            browser,
            ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)"]
                + arguments,
            timeout: timeout)
    }

    static func room() throws -> TestBoard {
        let room = try TestBoard()
        let reports: [(String, BoardReport)] = [
            ("aoi", TestBoard.report("A1", passed: true)),
            ("aoi", TestBoard.report("A2", passed: false, check: "fetches off the main thread")),
            ("ren", TestBoard.report("A1", passed: false, check: "the Screen never hangs")),
            ("<script>", TestBoard.report("A1", passed: false, check: "<img src=x onerror=alert(1)>")),
            ("さくら", TestBoard.report("A1", passed: true)),
            ("さくら", TestBoard.report("A2", passed: true)),
        ]
        for (name, report) in reports { _ = try room.report(name, report) }
        return room
    }

    @Test(
        "the page shows a row per learner, names as text, and a report posted while it is open",
        .enabled(
            if: browser != nil,
            "chromium is not installed: apt-get install chromium (bash .ci/setup --extras installs it)"),
        .enabled(if: slowTier, "slow tier: set SAKUSAKU_SLOW_TESTS=1"))
    func liveUpdate() throws {
        let room = try Self.room()
        defer { room.remove() }
        let url = "\(room.server.baseURL.absoluteString)/board?lang=en&wait=1"
        // The browser runs in the background; once its page waits for a change, a late learner reports.
        let outcome = Locked<Result<Subprocess.Outcome, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Result { try Self.chromium(["--dump-dom", "--virtual-time-budget=4000", url]) }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        let version = room.board.version
        #expect(room.board.wait(timeout: 60) { _, waiting in waiting > 0 }, "the page never asked for a change")
        #expect(try room.report("late", TestBoard.report("B1", passed: false, check: "a check")) == 200)
        #expect(finished.wait(timeout: .now() + 120) == .success, "chromium did not finish")
        let dump = try #require(try outcome.current?.get())
        #expect(dump.succeeded, "chromium: \(dump.stderr.suffix(2000))")
        let dom = dump.stdout
        #expect(dom.contains("data-state=\"live\""), "\(dom.prefix(3000))")
        #expect(dom.contains("data-version=\"\(version + 1)\""))
        #expect(!dom.contains("data-updates=\"0\""), "no live update")
        for name in ["aoi", "ren", "late", "さくら"] { #expect(dom.contains("data-learner=\"\(name)\"")) }
        // The hostile name and check are text, not elements: only the page's two script elements exist.
        #expect(dom.contains("<td class=\"name\">&lt;script&gt;</td>"))
        #expect(dom.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(dom.components(separatedBy: "<script").count - 1 == 2)
        #expect(!dom.contains("<img"))
        // The longest stuck is first: ren and <script> failed before late; aoi is stuck on A2.
        let rows = dom.components(separatedBy: "data-learner=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(rows.first == "aoi", "\(rows)")
        #expect(rows.last == "さくら", "\(rows)")
        #expect(dom.contains("data-exercise=\"A1\" data-passed=\"2\" data-failing=\"2\""))
    }

    @Test(
        "a screenshot of the Japanese page",
        .enabled(
            if: browser != nil,
            "chromium is not installed: apt-get install chromium (bash .ci/setup --extras installs it)"),
        .enabled(if: slowTier, "slow tier: set SAKUSAKU_SLOW_TESTS=1"))
    func screenshot() throws {
        let room = try Self.room()
        defer { room.remove() }
        let url = "\(room.server.baseURL.absoluteString)/board?wait=1"
        try? FileManager.default.removeItem(atPath: Self.screenshot)
        let outcome = try Self.chromium([
            "--screenshot=\(Self.screenshot)", "--window-size=1280,720", "--virtual-time-budget=2000",
            "--lang=ja", "--accept-lang=ja", url,
        ])
        #expect(outcome.succeeded, "chromium: \(outcome.stderr.suffix(2000))")
        let png = try #require(FileManager.default.contents(atPath: Self.screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000)
        print("board screenshot: \(Self.screenshot)")
    }
}
