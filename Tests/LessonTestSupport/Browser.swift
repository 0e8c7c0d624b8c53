import Foundation
import Testing
import WorkshopCore

/// Debian's chromium, headless: the tests that look at a page as a browser lays it out (the
/// board, the tutorials, the `--html` pages). `.ci/setup` installs it when it can; the tests
/// that need it are skipped, saying why, without it.
public enum Browser {
    /// The browser on PATH, if any.
    public static let path: String? = ["chromium", "chromium-browser", "google-chrome"].first { name in
        ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") } ?? false
    }

    public static let missing = "chromium is not installed: apt-get install chromium (see .ci/setup)"

    public struct NotInstalled: Error, CustomStringConvertible {
        public var description: String { Browser.missing }
    }

    /// Chromium hung in every try, seen off the test's own task (where `Test.cancel` cannot reach it).
    public struct Hung: Error, CustomStringConvertible {
        public var description: String
    }

    /// `body`'s result; a test whose chromium hung in every try is cancelled, not failed.
    public static func cancelWhenHungNow<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let hung as Hung {
            try Test.cancel(Comment(rawValue: hung.description))
        }
    }

    /// `body`'s result; a test whose chromium hung in every try is cancelled, not failed.
    public static func cancelWhenHung<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let hung as Hung {
            try Test.cancel(Comment(rawValue: hung.description))
        }
    }

    /// How long one browser run may take before it counts as hung: a cap for a machine whose
    /// cores are shared, not a claim about speed. Alone a page takes chromium seconds; CI runs the
    /// slow tier three processes wide on two cores, and there it has taken over 90 s.
    public static let timeout = 150.0

    /// How many times a run that hung is started again. On a starved machine headless chromium
    /// sometimes never finishes a `--screenshot` at all: in a CI-shaped rehearsal with four busy
    /// cores, 2 of 6 browser runs hung past 300 s, and none of the same 6 in the next round. A run
    /// that hangs says nothing about the page, so it is run again (and says so on stderr); a run
    /// that ends, whatever it printed, is the verdict.
    public static let attempts = 3

    /// A projector: what the room's pages must fit.
    public static let projector = (width: 1280, height: 800)

    /// Runs the browser headless with `arguments`, in a profile of its own (so a test never
    /// touches, or waits for, anyone's browser), each try bounded by `timeout`, up to `attempts`
    /// tries while it hangs.
    ///
    /// A run that hung in every try decides nothing: the test is cancelled, saying so (Swift
    /// Testing's `Test.cancel`, not a failure), or, off the test's task, `Hung` is thrown for the
    /// test to cancel itself with `cancelWhenHung`. `returnsWhenHung` gives the last outcome back
    /// instead (a screenshot, which is never a verdict).
    public static func run(
        _ arguments: [String], timeout: Double = Browser.timeout, attempts: Int = Browser.attempts,
        returnsWhenHung: Bool = false
    ) throws -> Subprocess.Outcome {
        guard let path else { throw NotInstalled() }
        var hung = ""
        for attempt in 1...attempts {
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
                "chromium-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: profile) }
            var outcome = try Subprocess.run(
                path,
                ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)"]
                    + arguments,
                timeout: timeout)
            if !outcome.timedOut || (attempt == attempts && returnsWhenHung) {
                outcome.stderr = hung + outcome.stderr
                return outcome
            }
            if attempt == attempts {
                let why =
                    "chromium hung in all \(attempts) tries (\(Int(timeout)) s each): a hang says nothing about the page"
                if Test.current != nil { try Test.cancel(Comment(rawValue: why)) }
                throw Hung(description: why)
            }
            let note = "chromium hung (no end within \(Int(timeout)) s, try \(attempt) of \(attempts)): started again\n"
            print(note, terminator: "")
            hung += note
        }
        preconditionFailure("the last try returns")
    }

    /// What a page measured of itself in the browser, read from the attributes `probeScript`
    /// wrote on `<body>`.
    public struct Layout: Equatable, CustomStringConvertible {
        /// `document.documentElement.scrollWidth`: the page's width with everything laid out.
        public var scrollWidth: Int
        /// `innerWidth`: the window's (the projector's) width.
        public var innerWidth: Int
        /// `document.documentElement.clientWidth`: the width left beside a vertical scroll bar.
        public var clientWidth: Int
        public var scrollHeight: Int
        public var innerHeight: Int

        /// The page scrolls sideways: wider than the window, or than what its scroll bar leaves.
        public var scrollsSideways: Bool { scrollWidth > innerWidth || scrollWidth > clientWidth }

        public var description: String {
            "scrollWidth \(scrollWidth), innerWidth \(innerWidth), clientWidth \(clientWidth), "
                + "scrollHeight \(scrollHeight), innerHeight \(innerHeight)"
        }

        /// The figures in a DOM that `--dump-dom` printed; nil when the probe never wrote them.
        public init?(dom: String) {
            func figure(_ name: String) -> Int? {
                guard let range = dom.range(of: "data-probe-\(name)=\"") else { return nil }
                return Int(dom[range.upperBound...].prefix { $0.isNumber })
            }
            guard let scrollWidth = figure("scroll-width"), let innerWidth = figure("inner-width"),
                let clientWidth = figure("client-width"), let scrollHeight = figure("scroll-height"),
                let innerHeight = figure("inner-height")
            else { return nil }
            self.scrollWidth = scrollWidth
            self.innerWidth = innerWidth
            self.clientWidth = clientWidth
            self.scrollHeight = scrollHeight
            self.innerHeight = innerHeight
        }
    }

    /// A script for a page under test: once the page is loaded, and drawn when it draws itself
    /// (a `<body data-state>` that is no longer "loading"), writes the page's figures on `<body>`
    /// as `data-probe-...` attributes, for `Layout(dom:)`.
    public static let probeScript = #"""
        (function () {
          function measure() {
            const state = document.body.dataset.state;
            if (state === "loading") { setTimeout(measure, 50); return; }
            const page = document.documentElement;
            const figures = {
              "scroll-width": page.scrollWidth, "inner-width": window.innerWidth, "client-width": page.clientWidth,
              "scroll-height": page.scrollHeight, "inner-height": window.innerHeight
            };
            for (const name in figures) document.body.setAttribute("data-probe-" + name, String(figures[name]));
          }
          if (document.readyState === "complete") measure(); else window.addEventListener("load", measure);
        })();
        """#

    /// Loads `url` at the projector's size, lets it run (`budget` ms of virtual time), and
    /// returns the DOM it ended with.
    public static func dom(_ url: String, budget: Int = 3000, timeout: Double = Browser.timeout) throws
        -> Subprocess.Outcome
    {
        try run(
            [
                "--window-size=\(projector.width),\(projector.height)", "--virtual-time-budget=\(budget)", "--dump-dom",
                url,
            ], timeout: timeout)
    }

    /// A screenshot is a picture for a person to look at (`SAKUSAKU_SCREENSHOTS`), never a
    /// verdict: each test decides on what the page measured of itself (`dom`, `Layout`) before it
    /// takes one. What became of it:
    enum Screenshot: Equatable {
        /// A PNG is in the file.
        case taken
        /// Chromium hung in every try. That says nothing about the page: on a starved machine
        /// headless chromium sometimes never ends a `--screenshot` with virtual time (CI lost 3 tries
        /// of 150 s in a row on one page whose layout the same test had just measured).
        case hung(String)
        /// Chromium ended without a PNG: that is a failure.
        case failed(String)
    }

    /// Screenshots get fewer, shorter tries than the runs that decide (alone one takes 5 s here,
    /// 5.5 s with four busy cores): a hung one costs CI at most 3 minutes.
    static let screenshotTimeout = 90.0
    static let screenshotAttempts = 2

    /// A PNG of `url` into `file`, at the projector's width and `height` (more than the
    /// projector's to see a whole page), after `budget` ms of virtual time; a PNG smaller than
    /// `minimumBytes` (a blank page is about 5 KB) is a failure.
    static func screenshot(
        _ url: String, to file: String, language: String = "en", height: Int = projector.height, budget: Int = 3000,
        minimumBytes: Int = 0, arguments: [String] = []
    ) throws -> Screenshot {
        try? FileManager.default.removeItem(atPath: file)
        let outcome = try run(
            arguments + [
                "--screenshot=\(file)", "--window-size=\(projector.width),\(height)",
                "--virtual-time-budget=\(budget)", "--lang=\(language)", "--accept-lang=\(language)", url,
            ], timeout: screenshotTimeout, attempts: screenshotAttempts, returnsWhenHung: true)
        if outcome.timedOut {
            return .hung("chromium hung \(screenshotAttempts) times (\(Int(screenshotTimeout)) s each); no screenshot")
        }
        let png = FileManager.default.contents(atPath: file) ?? Data()
        guard outcome.succeeded, png.starts(with: [0x89, 0x50, 0x4E, 0x47]), png.count >= minimumBytes else {
            return .failed(
                "chromium \(outcome.describeEnd(timeout: screenshotTimeout)), a PNG of \(png.count) bytes in \(file) "
                    + "(at least \(minimumBytes) wanted): " + String(outcome.stderr.suffix(2000)))
        }
        return .taken
    }

    /// Takes a screenshot and prints where it went, or that chromium hung (a line, not a
    /// failure: see `Screenshot.hung`); returns what failed when chromium ended without a PNG.
    public static func picture(
        _ label: String, of url: String, to file: String, language: String = "en", height: Int = projector.height,
        budget: Int = 3000, minimumBytes: Int = 0, arguments: [String] = []
    ) throws -> String? {
        switch try screenshot(
            url, to: file, language: language, height: height, budget: budget, minimumBytes: minimumBytes,
            arguments: arguments)
        {
        case .taken:
            print("\(label) screenshot: \(file)")
            return nil
        case .hung(let why):
            print("\(label) screenshot: \(why): \(url)")
            return nil
        case .failed(let why):
            return "\(label) screenshot: \(why)"
        }
    }

    /// Where a test's screenshots go: the folder in `SAKUSAKU_SCREENSHOTS` (made if missing), else
    /// a temporary one. The test prints each path.
    public static func screenshotFolder() -> URL {
        let folder =
            ProcessInfo.processInfo.environment["SAKUSAKU_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("screenshots-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
