import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// `workshop present 03` driven the way an instructor drives it: in a real terminal (a tmux
/// pane), with key presses, reading what the screen shows. In English and in Japanese.
final class PresentTmuxSlowTests: XCTestCase {
    /// Short lesson runs: 4 rows, a fast link, no idle measurement first.
    /// Short runs, but each request a second: step 2's run must still be going when the test,
    /// having seen it start, presses Ctrl-C (sent together with the key that starts it, the
    /// Ctrl-C could land before the run or after it on a busy machine: a race, not a test).
    static let extra = "--rows 4 --latency 1 --control-seconds 0"
    /// The most any one thing on the screen may take to appear (a lesson run on a busy machine).
    static let patience = 90.0

    func testPresentStepsThroughLesson03InEnglish() throws {
        try present(
            language: "en", file: "Lessons/03-gcd-queues.md",
            screen: .init(step: { "step \($0) of" }, takeaway: "Takeaway", stopped: "Stopped the run"))
    }

    func testPresentStepsThroughLesson03InJapanese() throws {
        try present(
            language: "ja", file: "Lessons/ja/03-gcd-queues.md",
            screen: .init(step: { "ステップ \($0) /" }, takeaway: "まとめ", stopped: "実行を止めました"))
    }

    /// The presenter's own words the test looks for, per language.
    struct Screen {
        var step: (Int) -> String
        var takeaway: String
        var stopped: String
    }

    func present(language: String, file: String, screen: Screen) throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        try XCTSkipUnless(
            Tmux.isInstalled, "tmux is not installed (bash .ci/setup --extras installs it): nothing to drive a terminal"
        )
        // The steps as the lesson text gives them: the test reads the same source as the presenter.
        let text = try String(contentsOf: ExerciseRoot.builtFrom.appendingPathComponent(file), encoding: .utf8)
        let demos = LessonText.demos(in: text, product: "lesson03")
        XCTAssertGreaterThanOrEqual(demos.count, 2, "lesson 03 quotes its demos")
        guard demos.count >= 2 else { return }

        // The shell says how the presenter ended: tmux 3.3 sometimes marks the pane dead (its
        // terminal closed) before it has the exit status, and then reports none.
        let command = [
            WorkshopBinary.path, "present", "3", "--lang", language, "--extra", "'\(Self.extra)'",
            "; echo \"presenter exited: $?\"",
        ].joined(separator: " ")
        let tmux = try Tmux(command: command, root: ExerciseRoot.builtFrom)
        defer { tmux.end() }

        // Step 1: its number, title, point and command.
        try tmux.waitForScreen("step 1 with its command") { screenText in
            screenText.contains(screen.step(1)) && screenText.contains(demos[0].title)
                && screenText.contains("$ " + demos[0].command)
                && screenText.contains(String(demos[0].point.prefix(12)))
        }
        // A key press runs it: the lesson's own table and takeaway, then the presenter's box.
        tmux.send("Space")
        try tmux.waitForScreen("the lesson's table and takeaway", history: true) { screenText in
            screenText.contains(MetricName.totalSeconds.rawValue)
                && screenText.contains("Queues did not make the network faster")
                && screenText.contains(screen.takeaway)
        }
        // The next key: step 2.
        tmux.send("Enter")
        try tmux.waitForScreen("step 2") { $0.contains(screen.step(2)) && $0.contains(demos[1].title) }
        // Run it, and once it has started (its own line for the threaded variant with four
        // image queues), stop it: the presenter stays on step 2.
        tmux.send("Space")
        try tmux.waitForScreen("step 2's run started") { $0.contains("4 image queues") }
        tmux.send("C-c")
        try tmux.waitForScreen("the run stopped") { $0.contains(screen.stopped) && $0.contains(screen.step(2)) }
        // `b` goes back to step 1.
        tmux.send("b")
        try tmux.waitForScreen("back at step 1") { $0.contains(screen.step(1)) && $0.contains(demos[0].title) }
        // `q` ends the presenter, with exit status 0.
        tmux.send("q")
        try tmux.waitForScreen("the presenter's end", history: true) { $0.contains("presenter exited: ") }
        XCTAssertTrue(tmux.capture(history: true).contains("presenter exited: 0"), tmux.capture(history: true))
    }
}

/// One detached tmux session on a server of its own (`-L`), so the tests never touch the
/// user's tmux; the pane stays after its program ends, to read its exit status.
struct Tmux {
    let socket = "workshop-present-\(UUID().uuidString.prefix(8))"
    let session = "present"

    static var isInstalled: Bool { (try? Subprocess.run("tmux", ["-V"], timeout: 10))?.succeeded == true }

    init(command: String, root: URL) throws {
        let started = try run([
            "new-session", "-d", "-s", session, "-x", "200", "-y", "60", "-c", root.path, command, ";",
            "set-option", "-t", session, "remain-on-exit", "on",
        ])
        guard started.succeeded else { throw TestWorkspaceFailure(description: "tmux: \(started.stderr)") }
    }

    /// tmux with this test's server; UTF-8 forced (`-u`), so the Japanese screen reads right.
    @discardableResult
    func run(_ arguments: [String]) throws -> Subprocess.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = nil
        environment["TMUX"] = nil  // a test run from inside tmux still starts its own server
        // The first call starts the tmux server, which outlives it: it must not inherit the
        // descriptor Foundation watches to see its child end (fd 13 here), or the call would
        // wait for the server. bash (dash takes one digit only) closes every descriptor above stderr first.
        let closeInherited =
            #"for fd in $(ls /dev/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done; exec tmux "$@""#
        return try Subprocess.run(
            "bash", ["-c", closeInherited, "tmux", "-u", "-L", socket] + arguments, environment: environment,
            timeout: 30)
    }

    func send(_ keys: String...) { _ = try? run(["send-keys", "-t", session] + keys) }

    /// The pane as the eye sees it (with `history`, also what scrolled off the top).
    func capture(history: Bool = false) -> String {
        let range = history ? ["-S", "-500"] : []
        return (try? run(["capture-pane", "-p", "-t", session] + range))?.stdout ?? ""
    }

    /// Polls the pane until `seen` holds; fails with what the screen showed after `PresentTmuxSlowTests.patience` seconds.
    func waitForScreen(_ what: String, history: Bool = false, _ seen: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(PresentTmuxSlowTests.patience)
        while Date() < deadline {
            if seen(capture(history: history)) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw TestWorkspaceFailure(description: "no \(what) on the screen; it shows:\n\(capture(history: true))")
    }

    func end() { _ = try? run(["kill-server"]) }
}
