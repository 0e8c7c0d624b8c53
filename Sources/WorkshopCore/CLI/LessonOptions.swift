import ArgumentParser
import Foundation

/// One of the three ways every lesson does its job.
///
/// `no-thread` does the job on the main thread (the freeze the articles start from),
/// `threaded` the articles' 2010 way (Operation, a run-loop thread, GCD queues), `async` the
/// same job in Swift 6 (async/await, tasks, actors). Three cases and no more, so a `switch`
/// over it needs no `default:` (which would mean a different variant in each lesson).
public enum Variant: String, CaseIterable, Codable, Sendable {
    case noThread = "no-thread"
    case threaded
    case async
}

/// What `--variant` selects: one variant, or `both` (the first two) or `all` (the three).
/// Kept apart from `Variant` so a run is always exactly one variant.
public enum VariantChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    case noThread = "no-thread"
    case threaded
    case async
    case both
    case all

    /// The variants this choice stands for, in the order they run.
    public var variants: [Variant] {
        switch self {
        case .noThread: [.noThread]
        case .threaded: [.threaded]
        case .async: [.async]
        case .both: [.noThread, .threaded]
        case .all: Variant.allCases
        }
    }
}

/// The flags every lesson shares. Bad values end the program with a usage error naming the
/// flag and exit code 64 (swift-argument-parser's `ValidationError`).
public struct LessonOptions: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            localized(
                "Which variant to run: no-thread, threaded, async, both (no-thread and threaded) or all (the three; the default)."
            ), valueName: "variant"))
    public var variant: VariantChoice = .all

    @Flag(
        help: ArgumentHelp(
            localized(
                "Print one JSON document with every variant's metrics, and nothing else, on stdout (in English, whatever --lang says)."
            )))
    public var json = false

    @Option(
        help: ArgumentHelp(
            localized("Also draw the run's timeline as a picture (SVG) into this file, for slides."), valueName: "file")
    )
    public var svg: String?

    @Option(
        help: ArgumentHelp(
            localized("Also write one self-contained web page (picture, table, takeaway) into this file."),
            valueName: "file"))
    public var html: String?

    /// `--cancel-after`'s and `--control-seconds`' numbers.
    public static let cancelAfterRange = FlagRange("--cancel-after", 0...300.0, seconds: true)
    public static let controlSecondsRange = FlagRange("--control-seconds", 0...5.0, seconds: true)

    @Option(
        Self.cancelAfterRange,
        help: localized(
            "Tap Cancel this many seconds into each variant's run, the way its era cancels (Operation cancel, a GCD cancel token, Task.cancel); the report then says what still happened after the cancel"
        ), valueName: "seconds")
    public var cancelAfter: Double?

    @Option(
        Self.controlSecondsRange,
        help: localized(
            "Seconds to measure the machine before the lesson: the main loop's own lateness with no work"),
        valueName: "seconds", visibility: .hidden)
    public var controlSeconds: Double = 1

    /// Ends the human output with the table, without the takeaway after it: `workshop present`
    /// shows the lesson text's own takeaway for each step instead, so the room reads one, about
    /// that step. (A busy machine's sentence stays: it says how to read the figures.) For the
    /// presenter, so hidden from `--help`.
    @Flag(
        name: .customLong("no-takeaway"),
        help: ArgumentHelp("End with the table, without the takeaway.", visibility: .hidden))
    public var noTakeaway = false

    /// Prints the lesson's contract (`LessonContract`) as JSON and nothing else: for the lesson
    /// contract suite and tools, so hidden from `--help`.
    @Flag(help: ArgumentHelp("Print the lesson's contract as JSON.", visibility: .hidden))
    public var contract = false

    @OptionGroup public var language: LanguageOption

    public init() {}

    public func validate() throws {
        try Self.cancelAfterRange.check(cancelAfter)
        try Self.controlSecondsRange.check(controlSeconds)
        try OutputFileFlag.check("--svg", svg)
        try OutputFileFlag.check("--html", html)
    }

    /// The flags every lesson takes, in the contract: `--contract` lists them before the lesson's own.
    public static var contractFlags: [LessonContract.Flag] {
        [
            LessonContract.Flag(name: "--variant", refused: ["sideways"]),
            LessonContract.Flag(name: "--json"),
            LessonContract.Flag(name: "--svg", refused: ["/no/such/folder/run.svg"]),
            LessonContract.Flag(name: "--html", refused: ["/no/such/folder/run.html"]),
            cancelAfterRange.contract, controlSecondsRange.contract.hiddenFromHelp,
            LessonContract.Flag(name: "--lang", refused: ["fr"]),
            LessonContract.Flag(name: "--contract", hidden: true),
            LessonContract.Flag(name: "--no-takeaway", hidden: true),
        ]
    }

    /// Where the Screen draws: in place on a terminal, plain lines in a pipe, nowhere with `--json`.
    public var screenOutput: ScreenOutput { .automatic(json: json) }
}
