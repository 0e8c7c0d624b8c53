import ArgumentParser
import Foundation

/// What every variant of one lesson run shares (a fixture server, a database, a scratch
/// folder), made once before the first variant and torn down after the last.
public protocol LessonSetup: Sendable {
    func tearDown()
}

/// What the harness needs to know of the server a lesson talks to, to count what reached it
/// after a cancel (WorkshopServer's `FixtureEndpoint` is one).
public protocol RequestLedger: Sendable {
    /// Seconds the server waits before each response: a request sent just before the cancel
    /// may still arrive this long after it.
    var latencySeconds: Double { get }
    /// Requests the server received at `monotonic` seconds or later; nil when it is not ours
    /// (`--server`) and we cannot count.
    func requestsReceived(since monotonic: Double) -> Int?
}

/// For lessons that share nothing between variants.
public struct NoSetup: LessonSetup {
    public init() {}
    public func tearDown() {}
}

/// A lesson program. A lesson says what is its own: its flags, what its variants share
/// (`prepare`), how one variant runs (`perform`) and what the numbers mean (`takeaway`).
/// The `run()` below does the rest, the same way in every lesson:
///
/// 0. with `--contract`, only the lesson's contract (`LessonContract`), as JSON;
/// 1. `prepare()`, then the banner (people only);
/// 2. each variant in turn on the main thread, its failure (once) and its timeline;
/// 3. the side-by-side table and the takeaway, or with `--json` one JSON document; a run on a
///    machine that was busy before it or while a variant ran (`MachineVerdict`) says so in
///    place of the takeaway, and compares nothing;
/// 4. exit status 1 naming every variant that failed.
public protocol LessonProgram: ParsableCommand, Sendable {
    associatedtype Setup: LessonSetup
    /// The lesson's own results of one variant (rows, heights, ...), for its takeaway and tests.
    associatedtype Details: Sendable
    /// What one run of `perform` stands for: a `Variant`, or a lesson's finer kinds of run.
    associatedtype Kind: Sendable = Variant

    /// What the lesson promises on its command line, as data in its kit (`--contract` prints it).
    static var contract: LessonContract { get }
    /// "03" (the contract's)
    static var number: String { get }
    /// "GCD queues: timeline and icons" (the contract's)
    static var title: String { get }

    var common: LessonOptions { get }

    /// Makes what the variants share. A thrown error ends the program with its description.
    func prepare() throws -> Setup
    /// The lines printed before the first variant (not with `--json`).
    func banner(_ setup: Setup) -> String
    /// The runs `--variant` asks for, in order (most lessons: the variants themselves).
    func kinds(for variants: [Variant]) -> [Kind]
    /// One line saying what this run does, printed before it starts.
    func describe(_ kind: Kind) -> String
    /// Runs one variant to the end on the main thread (see `VariantRun.perform`).
    @MainActor func perform(_ kind: Kind, setup: Setup, output: ScreenOutput) -> VariantRun<Details>
    /// The lesson's parameters in the report (the flags' values, the server).
    func parameters(_ setup: Setup) -> [(MetricName, Metric)]
    /// One or two sentences on what the numbers mean, written from the numbers. Called only
    /// when every run succeeded.
    func takeaway(_ runs: [VariantRun<Details>]) -> String
}

extension LessonProgram where Kind == Variant {
    public func kinds(for variants: [Variant]) -> [Variant] { variants }
}

extension LessonProgram {
    /// What ArgumentParser writes before the failure line on stderr, in the program's language
    /// ("エラー: " in Japanese; "Error: " with `--json`, whose failures stay English).
    public static var _errorPrefix: String { localized("Error: ") }

    public static var number: String { contract.number }
    public static var title: String { contract.title }

    /// The command's name (`lessonNN`), its abstract and its discussion (paragraphs, one a line).
    public static func commandConfiguration(abstract: String, discussion: String...) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "lesson" + number, abstract: abstract, discussion: discussion.joined(separator: "\n"))
    }

    /// The contract `--contract` prints: the flags every lesson takes, then the lesson's own.
    public static var printedContract: LessonContract {
        var contract = Self.contract
        contract.flags = LessonOptions.contractFlags + contract.flags
        return contract
    }

    public func run() throws {
        if common.contract { return say(Self.printedContract.json) }
        // The JSON document is an API: its takeaway and failures stay English whatever the locale.
        if common.json { Localized.use(.en) }
        // The machine first: how late is the main loop with no work at all?
        let control =
            common.controlSeconds > 0
            ? MainActor.assumeIsolated { MachineControl.measure(seconds: common.controlSeconds) } : nil
        let setup: Setup
        do { setup = try prepare() } catch { throw LessonFailure(localized(format: "could not start: %@", "\(error)")) }
        defer { setup.tearDown() }
        let human = !common.json
        if human { say(banner(setup) + (control.map { "\n" + $0.bannerLine() } ?? "") + "\n") }

        var runs: [VariantRun<Details>] = []
        // What other programs used while each variant ran (measured with the control, not without).
        var windows = control?.load.map { [MachineVerdict.Window(variant: nil, load: $0)] } ?? []
        for kind in kinds(for: common.variant.variants) {
            if human { say(describe(kind)) }
            let before = control == nil ? nil : MachineLoad.sample()
            // `run()` is called on the main thread (ArgumentParser's `main()` runs there).
            let run = MainActor.assumeIsolated { perform(kind, setup: setup, output: common.screenOutput) }
            if let before, let after = MachineLoad.sample(),
                let load = MachineLoad(from: before, to: after, cores: MachineLoad.cores)
            {
                windows.append(MachineVerdict.Window(variant: run.name, load: load))
            }
            // A blank line ends every variant's lines, with or without a timeline after them.
            if human { say(run.humanSummary.isEmpty ? "" : run.humanSummary + "\n") }
            runs.append(run)
        }
        let machine = control.map { MachineVerdict(control: $0, windows: windows) }

        let failed = runs.filter { $0.failure != nil }
        var takeaway = ""
        if failed.isEmpty {
            // A busy run draws no comparison: it says so, and what to run again.
            takeaway =
                machine?.takeaway(rerun: MachineVerdict.rerunCommand(product: "lesson" + Self.number))
                ?? (common.cancelAfter == nil ? self.takeaway(runs) : Self.cancelTakeaway(runs))
        }
        let report = LessonReport(
            lesson: Self.number, title: Self.title,
            parameters: parameters(setup)
                + (control.map { [(.controlMaxLateSeconds, .seconds($0.maxLateSeconds))] } ?? []),
            variants: runs.map { VariantResult(name: $0.name, metrics: $0.metrics, failure: $0.failure) },
            takeaway: takeaway)
        try writePictures(report: report, runs: runs, banner: banner(setup))
        if common.json {
            say(report.json)
        } else if failed.count < runs.count || runs.contains(where: \.gotStarted) {
            // A table only of runs that did something: a server that never answered has no figures.
            let busy = machine?.isBusy == true
            if common.noTakeaway {
                // (`workshop present` shows the text's takeaway; a busy run still says so.)
                say(report.table + (failed.isEmpty && busy ? "\n\n" + report.takeaway : ""))
            } else {
                let note = busy ? "\n" + localized("(a busy machine: see the takeaway)") : ""
                say(report.table + note + (failed.isEmpty ? "\n\n" + report.takeaway : ""))
            }
        }
        if !failed.isEmpty { throw LessonFailure(failed: failed.map { ($0.name, $0.failure ?? "") }) }
    }

    /// The takeaway of a run with `--cancel-after`: when each variant handled the tap, how
    /// soon its work stopped, and what still happened after it.
    static func cancelTakeaway(_ runs: [VariantRun<Details>]) -> String {
        let parts = runs.map { run -> String in
            guard let at = run.seconds(.cancelAtSeconds), let handled = run.seconds(.cancelHandledSeconds) else {
                return localized(format: "%@ finished before the cancel", run.name)
            }
            let after =
                ([run.count(.requestsAfterCancel).map(countedRequests)] + [
                    countedRows(run.count(.rowsAfterCancel) ?? 0)
                ])
                .compactMap { $0 }.joined(separator: localized(", "))
            let stopped = String(format: "%.2f", run.seconds(.stoppedAfterCancelSeconds) ?? 0)
            return handled - at < 0.02
                ? localized(
                    format: "%1$@ handled the tap at once and stopped %2$@ s after it (after the cancel: %3$@)",
                    run.name,
                    stopped, after)
                : localized(
                    format:
                        "%1$@ handled the tap %2$@ s late (main was busy) and stopped %3$@ s after it (after the cancel: %4$@)",
                    run.name, String(format: "%.2f", handled - at), stopped, after)
        }
        // In Japanese each variant's part is a sentence of its own.
        return localized(
            format: "Cancel: %@.", Localized.language == .ja ? parts.joined(separator: "。") : listed(parts))
    }
}

extension LessonProgram {
    /// `--svg FILE` and `--html FILE`: the run as a picture, and as a page with the table.
    func writePictures(report: LessonReport, runs: [VariantRun<Details>], banner: String) throws {
        guard common.svg != nil || common.html != nil else { return }
        func picture(headings: Bool) -> TimelinePicture {
            TimelinePicture(
                title: TimelinePicture.lessonTitle(number: Self.number, title: Self.title),
                subtitle: report.parameters.map { "\($0.0) \($0.1.tableValue)" }.joined(separator: localized(", ")),
                runs: runs.map(\.pictureRun), caption: report.takeaway, headings: headings)
        }
        for (flag, path, text) in [
            ("--svg", common.svg, common.svg == nil ? "" : picture(headings: true).svg),
            (
                "--html", common.html,
                common.html == nil
                    ? "" : RunPage.html(report: report, picture: picture(headings: false), banner: banner)
            ),
        ] {
            guard let path else { continue }
            do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                throw LessonFailure(
                    localized(format: "%1$@: could not write %2$@: %3$@", flag, path, error.localizedDescription))
            }
            if !common.json {
                say(localized(format: flag == "--svg" ? "Picture written to %@" : "Page written to %@", path))
            }
        }
    }
}

/// A failure the lesson explains in one sentence; the program exits with status 1.
public struct LessonFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// "the no-thread and threaded variants failed: timed out after 10 s waiting for ..."
    /// (one cause said once), or one line per variant when their causes differ.
    public init(failed: [(name: String, cause: String)]) {
        let names = failed.map(\.name)
        let causes = Set(failed.map(\.cause))
        let variants =
            names.count == 1
            ? localized(format: "the %@ variant", names[0]) : localized(format: "the %@ variants", listed(names))
        if causes.count == 1, let cause = causes.first {
            description = localized(format: "%1$@ failed: %2$@", variants, cause)
        } else {
            description =
                localized(format: "%@ failed:", variants) + "\n"
                + failed.map { "  \($0.name): \($0.cause)" }.joined(separator: "\n")
        }
    }
}

/// "a", "a and b", "a, b and c" (in Japanese "a、b と c", "0 件と 1 件": a space beside と
/// only where it meets a letter or a digit, as Japanese is written).
public func listed(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    guard items.count > 1 else { return last }
    let head = items.dropLast().joined(separator: localized(", "))
    guard Localized.language == .ja else { return head + " and " + last }
    let before = head.last.map { $0.isASCII && !$0.isWhitespace } == true ? " " : ""
    let after = last.first.map { $0.isASCII && !$0.isWhitespace } == true ? " " : ""
    return head + before + "と" + after + last
}

/// Sentences one after another: a space between them in English, none in Japanese (a
/// Japanese sentence ends with 。 and the next starts right after it).
public func sentences(_ parts: [String]) -> String {
    parts.filter { !$0.isEmpty }.joined(separator: Localized.language == .ja ? "" : " ")
}

/// "1 row", "2 rows", "0 items": a count with its noun.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
}
