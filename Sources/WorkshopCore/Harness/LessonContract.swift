import Foundation

/// What a lesson's program promises, as data. Each lesson declares its own in its kit
/// (`LessonNNKit/Contract.swift`); the program prints it with the hidden flag `--contract`, as
/// one JSON document, adding the flags every lesson shares. The lesson contract suite
/// (`Tests/LessonContractTests`) finds every `Sources/lessonNN`, reads this from the built
/// program and checks each promise the lessons share on it: the JSON report, `--variant`, bad
/// flags, `--help`, Japanese, a cancel, and for a network lesson a server that fails.
public struct LessonContract: Sendable, Codable, Equatable {
    /// "03"
    public var number: String
    /// "GCD queues: timeline and icons" (English: the JSON report's title; pictures translate it)
    public var title: String
    /// Arguments for a short run of the default variants (a few seconds): every run the suite
    /// makes starts from them.
    public var quick: [String]
    /// The lesson's own figures, which every run reports beside the ones every lesson shares.
    public var metrics: [MetricName]
    /// The runs `--variant all` (the default) makes, in order: most lessons, the three variants.
    public var runs: [Run]
    /// The lesson's flags (a network lesson's network flags first): each is listed by `--help`,
    /// shows its range there, and refuses its `refused` values (exit code 64, the error names
    /// the flag). `--contract` adds the flags every lesson takes before them.
    public var flags: [Flag]
    /// What `--help` says of the lesson's own flags, in English and in Japanese (its ranges,
    /// defaults, what the async variant is): phrases, white space folded.
    public var help: [String]
    public var japaneseHelp: [String]
    /// The lesson talks to the fixture API (nil: it does not).
    public var network: Network?
    /// Added to `quick` for a run cancelled mid-way (`--cancel-after`, and what makes the run
    /// long enough to be cancelled in the middle).
    public var cancel: [String]
    /// Requests a variant may have on their way when the user taps Cancel (it sends that many
    /// at once): they may still reach the server after the tap. No row is ever shown after it.
    public var cancelAllowance: Int
    /// Runs with `--lang ja` (added to `quick`) and phrases each prints; the first is `quick`
    /// itself. None prints an English sentence.
    public var japanese: [JapaneseRun]
    /// Where a line quotes words that are the same in every language (a table row of labels,
    /// SQLite's own messages): the line is read for English sentences only up to there.
    public var quoted: [String]

    public init(
        number: String, title: String, quick: [String], metrics: [MetricName],
        runs: [Run] = Variant.allCases.map { Run($0.rawValue, $0) }, flags: [Flag], help: [String],
        japaneseHelp: [String], network: Network? = nil, cancel: [String], cancelAllowance: Int = 1,
        japanese: [JapaneseRun], quoted: [String] = []
    ) {
        self.number = number
        self.title = title
        self.quick = quick
        self.metrics = metrics
        self.runs = runs
        self.flags = flags
        self.help = help
        self.japaneseHelp = japaneseHelp
        self.network = network
        self.cancel = cancel
        self.cancelAllowance = cancelAllowance
        self.japanese = japanese
        self.quoted = quoted
    }

    /// One run of `--variant all`, and the variant it belongs to (`--variant threaded` makes
    /// every run of the threaded variant: lesson 02's comparison loops are three).
    public struct Run: Sendable, Codable, Equatable {
        public var name: String
        public var variant: Variant
        public init(_ name: String, _ variant: Variant) {
            self.name = name
            self.variant = variant
        }
    }

    /// A flag of the command line.
    public struct Flag: Sendable, Codable, Equatable {
        /// "--items"
        public var name: String
        /// Values the flag refuses with a usage error (exit code 64) that names it.
        public var refused: [String]
        /// The numbers it takes (nil: not a number).
        public var range: Range?
        /// Not in `--help` (a flag for tools and tests).
        public var hidden: Bool

        public init(name: String, refused: [String] = [], range: Range? = nil, hidden: Bool = false) {
            self.name = name
            self.refused = refused
            self.range = range
            self.hidden = hidden
        }

        /// A `FlagRange`'s bounds, as the program shows them.
        public struct Range: Sendable, Codable, Equatable {
            public var lowest: String
            /// nil: no upper bound.
            public var highest: String?
            public var seconds: Bool
        }

        /// The same flag, hidden from `--help`.
        public var hiddenFromHelp: Flag {
            var flag = self
            flag.hidden = true
            return flag
        }
    }

    /// A network lesson's link to its own fixture server (`--help` shows these as the network
    /// flags' defaults), and what it promises when the server fails it (its network flags are
    /// among its `flags`).
    public struct Network: Sendable, Codable, Equatable {
        /// Seconds the server waits before each response (`--latency`).
        public var latency: Double
        /// Bytes per second of the link, 0: no limit (`--bandwidth`).
        public var bandwidth: Int
        /// Seconds one request may wait for an answer (`--timeout`).
        public var timeout: Double
        /// What each fault's failure says (one line per run), where the suite's common words
        /// are not this lesson's: "500": "HTTP 500".
        public var causes: [String: String]
        /// Japanese words each fault's failure says in a Japanese run, beyond the common ones.
        public var japaneseCauses: [String: [String]]
        /// The path of the request a failing server fails first: an unreachable or a silent
        /// server's failure names it (and with `faultsNamePath`, every fault's).
        public var firstPath: String
        public var faultsNamePath: Bool
        /// Every run meets a fault on the same request, so stderr says one cause, once (not
        /// so where a variant sends several requests at once: one may fail first in one run,
        /// another in the next).
        public var oneCause: Bool

        public init(
            latency: Double, bandwidth: Int, timeout: Double = 10, causes: [String: String] = [:],
            japaneseCauses: [String: [String]] = [:], firstPath: String,
            faultsNamePath: Bool = false, oneCause: Bool = true
        ) {
            self.latency = latency
            self.bandwidth = bandwidth
            self.timeout = timeout
            self.causes = causes
            self.japaneseCauses = japaneseCauses
            self.firstPath = firstPath
            self.faultsNamePath = faultsNamePath
            self.oneCause = oneCause
        }
    }

    /// A run in Japanese and phrases it prints.
    public struct JapaneseRun: Sendable, Codable, Equatable {
        /// Added to `quick` (and `--lang ja`).
        public var arguments: [String]
        public var phrases: [String]
        /// `quick` itself.
        public init(_ phrases: [String]) { self.init([], phrases) }
        public init(_ arguments: [String], _ phrases: [String]) {
            self.arguments = arguments
            self.phrases = phrases
        }
    }

    /// The contract as one JSON document (keys sorted, so a change shows in a diff).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The contract `json` printed, read back.
    public init(json: String) throws {
        self = try JSONDecoder().decode(LessonContract.self, from: Data(json.utf8))
    }
}
