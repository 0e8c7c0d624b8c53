import ExerciseChecks
import Foundation
import Lesson03Kit
import Testing
import WorkshopCore
import WorkshopTools

/// `workshop present 03` driven the way an instructor drives it: in a real terminal (a tmux
/// pane), with key presses, reading what the screen shows. In English and in Japanese: with
/// `--lang ja` the lesson itself speaks Japanese too. Each step ends with one takeaway, its
/// section's from the text (the program's own is left out), and the step's banner stays at the
/// top while the run's output, longer than the pane, scrolls below it.
@Suite struct PresentTmuxSlowTests {
    /// Short runs, but each request a second: step 2's run must still be going when the test,
    /// having seen it start, presses Ctrl-C (sent together with the key that starts it, the
    /// Ctrl-C could land before the run or after it on a busy machine: a race, not a test).
    static let extra = "--rows 4 --latency 1 --control-seconds 0"
    /// The most any one thing on the screen may take to appear (a lesson run on a busy machine).
    static let patience = 90.0
    /// The pane's height: room for a step's banner and a few rows of output under it, fewer
    /// than a run of lesson 03 prints, so the output must scroll while the banner stays.
    static let paneRows = 36

    @Test func presentStepsThroughLesson03InEnglish() async throws {
        try await present(
            language: "en", file: "Lessons/03-gcd-queues.md",
            screen: .init(
                step: { "step \($0) of" }, takeaway: "┌─ Takeaway", stopped: "Stopped the run",
                lessonsOwn: "metric", lessonStarted: "4 image queues", lessonsFirstLine: "A public timeline of",
                programsTakeaways: ["Queues did not make the network faster", "Run all variants (the default)"]))
    }

    @Test func presentStepsThroughLesson03InJapanese() async throws {
        try await present(
            language: "ja", file: "Lessons/ja/03-gcd-queues.md",
            screen: .init(
                step: { "ステップ \($0) /" }, takeaway: "┌─ まとめ", stopped: "実行を止めました",
                lessonsOwn: "指標", lessonStarted: "画像用キュー 4 本", lessonsFirstLine: "公開タイムラインの投稿",
                programsTakeaways: ["キューでネットワークが速くなったわけではありません", "比べるにはすべてのバリアントを実行してください"]))
    }

    /// What the test looks for on the screen, per language.
    struct Screen {
        /// The presenter's own words.
        var step: (Int) -> String
        var takeaway: String
        var stopped: String
        /// The lesson program's own words: its table's heading; the line step 2's run starts with;
        /// the first line of its output, which has scrolled away under the banner by the end.
        var lessonsOwn: String
        var lessonStarted: String
        var lessonsFirstLine: String
        /// The program's takeaways, which the presenter leaves out for the text's.
        var programsTakeaways: [String]
    }

    func present(language: String, file: String, screen: Screen) async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        try #require(
            Tmux.isInstalled, "tmux is not installed (bash .ci/setup --extras installs it): nothing to drive a terminal"
        )
        // The steps as the lesson text gives them: the test reads the same source as the presenter.
        let text = try String(contentsOf: ExerciseRoot.builtFrom.appendingPathComponent(file), encoding: .utf8)
        let demos = LessonText.demos(in: text, product: "lesson03")
        #expect(demos.count >= 2, "lesson 03 quotes its demos")
        guard demos.count >= 2 else { return }
        #expect(!(demos[0].takeaway.isEmpty || demos[1].takeaway.isEmpty), "lesson 03's sections give takeaways")

        // The shell says how the presenter ended: tmux 3.3 sometimes marks the pane dead (its
        // terminal closed) before it has the exit status, and then reports none.
        let command = [
            WorkshopBinary.path, "present", "3", "--lang", language, "--extra", "'\(Self.extra)'",
            "; echo \"presenter exited: $?\"",
        ].joined(separator: " ")
        let tmux = try await Tmux(command: command, root: ExerciseRoot.builtFrom, rows: Self.paneRows)
        defer { tmux.end() }

        // Step 1: its number, title, point and command.
        try await tmux.waitForScreen("step 1 with its command") { screenText in
            screenText.contains(screen.step(1)) && screenText.contains(demos[0].title)
                && screenText.contains("$ " + demos[0].runs[0].text)
                && screenText.contains(String(demos[0].point.prefix(12)))
        }
        // A key press runs it. At its end the pane shows, at once: the banner (still at the top),
        // the end of the lesson's table in the lesson's language, and the step's takeaway.
        await tmux.send("Space")
        try await tmux.waitForScreen("the banner, the lesson's table and the takeaway together") { screenText in
            screenText.contains(screen.step(1)) && screenText.contains(demos[0].title)
                && screenText.contains(screen.lessonsOwn) && screenText.contains(MetricName.iconFailures.rawValue)
                && screenText.contains(screen.takeaway)
        }
        var shown = await tmux.capture(history: true)
        // The output was longer than the pane: its first line has scrolled away, the banner has not.
        let pane = await tmux.capture()
        #expect(!pane.contains(screen.lessonsFirstLine), "\(pane)")
        // One takeaway: the text's, in its box, once; the program's own is not there.
        #expect(shown.components(separatedBy: screen.takeaway).count - 1 == 1, "\(shown)")
        #expect(Self.folded(shown).contains(Self.folded(String(demos[0].takeaway.prefix(30)))), "\(shown)")
        for programs in screen.programsTakeaways { #expect(!shown.contains(programs), "\(shown)") }

        // The next key: step 2.
        await tmux.send("Enter")
        try await tmux.waitForScreen("step 2") { $0.contains(screen.step(2)) && $0.contains(demos[1].title) }
        // Run it, and once it has started (the lesson's own line for four image queues, in the
        // lesson's language), stop it: the presenter stays on step 2.
        let lessonStarted = screen.lessonStarted
        try await tmux.send("Space", then: "C-c", whenSeen: "step 2's run started") { $0.contains(lessonStarted) }
        try await tmux.waitForScreen("the run stopped") { $0.contains(screen.stopped) && $0.contains(screen.step(2)) }
        // `r` runs it again, to its end: step 2's own takeaway, not the program's "run all variants".
        await tmux.send("r")
        try await tmux.waitForScreen("step 2's takeaway") { screenText in
            screenText.contains(screen.step(2)) && screenText.contains(screen.takeaway)
                && Self.folded(screenText).contains(Self.folded(String(demos[1].takeaway.prefix(30))))
        }
        shown = await tmux.capture(history: true)
        for programs in screen.programsTakeaways { #expect(!shown.contains(programs), "\(shown)") }
        // `b` goes back to step 1.
        await tmux.send("b")
        try await tmux.waitForScreen("back at step 1") { $0.contains(screen.step(1)) && $0.contains(demos[0].title) }
        // `q` ends the presenter, with exit status 0.
        await tmux.send("q")
        try await tmux.waitForScreen("the presenter's end", history: true) { $0.contains("presenter exited: ") }
        let end = await tmux.capture(history: true)
        #expect(end.contains("presenter exited: 0"), "\(end)")
    }

    /// The screen's text without line breaks and the spaces around them (the takeaway's box
    /// wraps it), and the text's without spaces, so the two compare.
    static func folded(_ text: String) -> String {
        text.filter { !$0.isWhitespace && $0 != "│" }
    }
}

/// One detached tmux session on a server of its own (`-L`), so the tests never touch the
/// user's tmux; the pane stays after its program ends, to read its exit status.
struct Tmux {
    let socket = "workshop-present-\(UUID().uuidString.prefix(8))"
    let session = "present"

    static var isInstalled: Bool { (try? Subprocess.run("tmux", ["-V"], timeout: 10))?.succeeded == true }

    init(command: String, root: URL, rows: Int = 60) async throws {
        let started = try await run([
            "new-session", "-d", "-s", session, "-x", "200", "-y", String(rows), "-c", root.path, command, ";",
            "set-option", "-t", session, "remain-on-exit", "on",
        ])
        guard started.succeeded else { throw TestWorkspaceFailure(description: "tmux: \(started.stderr)") }
    }

    /// tmux with this test's server, as its arguments; UTF-8 forced (`-u`), so the Japanese
    /// screen reads right. (The first call starts the server, which outlives it: `Subprocess`
    /// gives a child no descriptor of this process but its pipes, so the call does not wait
    /// for the server.)
    func command(_ arguments: [String]) -> (arguments: [String], environment: [String: String]) {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["TMUX"] = nil  // a test run from inside tmux still starts its own server
        return (["-u", "-L", socket] + arguments, environment)
    }

    /// Runs tmux, waited for off Swift's pool and in no slot: a screen is read while a lesson
    /// runs, and must not queue behind a compile.
    @discardableResult
    func run(_ arguments: [String]) async throws -> Subprocess.Outcome {
        let (arguments, environment) = command(arguments)
        return try await Subprocess.run("tmux", arguments, environment: environment, timeout: 30, in: .unlimited)
    }

    func send(_ keys: String...) async { _ = try? await run(["send-keys", "-t", session] + keys) }

    /// The pane as the eye sees it (with `history`, also what scrolled off the top).
    func capture(history: Bool = false) async -> String {
        let range = history ? ["-S", "-500"] : []
        return (try? await run(["capture-pane", "-p", "-t", session] + range))?.stdout ?? ""
    }

    /// Sends `first`, then `keys` as soon as the pane shows what `seen` looks for, all from a
    /// thread of its own: the line looked for is there only while a run lasts (two seconds), and
    /// a test task of Swift's pool may not be resumed for longer than that on a loaded machine
    /// (the pool's threads, one per core, can all be held by other tests' blocking waits; in a CI
    /// rehearsal the run had ended before the task that pressed Space looked). Fails as
    /// `waitForScreen` does.
    func send(
        _ first: String, then keys: String, whenSeen what: String, _ seen: @escaping @Sendable (String) -> Bool
    ) async throws {
        let (capturePane, _) = command(["capture-pane", "-p", "-t", session])
        let (sendFirst, _) = command(["send-keys", "-t", session, first])
        let (sendKeys, environment) = command(["send-keys", "-t", session, keys])
        let patience = PresentTmuxSlowTests.patience
        let found: Bool = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                _ = try? Subprocess.run("tmux", sendFirst, environment: environment, timeout: 30)
                let deadline = Date().addingTimeInterval(patience)
                while true {
                    let screen = (try? Subprocess.run("tmux", capturePane, environment: environment, timeout: 30))?
                        .stdout
                    if seen(screen ?? "") {
                        _ = try? Subprocess.run("tmux", sendKeys, environment: environment, timeout: 30)
                        return continuation.resume(returning: true)
                    }
                    if Date() >= deadline { return continuation.resume(returning: false) }
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
        }
        guard found else {
            throw TestWorkspaceFailure(
                description: "no \(what) on the screen; it shows:\n\(await capture(history: true))")
        }
    }

    /// Polls the pane until `seen` holds; fails with what the screen showed after
    /// `PresentTmuxSlowTests.patience` seconds. (Polling: tmux tells no one when a pane changes.)
    func waitForScreen(_ what: String, history: Bool = false, _ seen: (String) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(PresentTmuxSlowTests.patience)
        // A last look after the deadline: a loaded machine can resume this task only then.
        while true {
            if seen(await capture(history: history)) { return }
            if Date() >= deadline { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestWorkspaceFailure(description: "no \(what) on the screen; it shows:\n\(await capture(history: true))")
    }

    /// Stops the test's tmux server (from a `defer`: not awaited).
    func end() {
        let (arguments, environment) = command(["kill-server"])
        _ = try? Subprocess.run("tmux", arguments, environment: environment, timeout: 30)
    }
}
