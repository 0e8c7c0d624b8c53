import ArgumentParser
import Lesson03Kit
import WorkshopCore

@main
struct Lesson03: LessonProgram, NetworkDefaults {
    static let configuration = CommandConfiguration(
        commandName: "lesson03",
        abstract: "GCD queues: a public timeline and its icons, fetched on the main thread and then on queues.",
        discussion: """
            The no-thread variant fetches the timeline and every icon on the main thread, so the \
            Screen freezes until all of it is in. The threaded variant fetches on a timeline queue \
            and an image queue and hands each result to the main queue, so the Screen keeps drawing.
            Source: "Grand Central Dispatchで楽々マルチスレッド" (the lesson text gives the details: \
            Lessons/03-gcd-queues.md).
            """
    )
    static let number = "03"
    static let title = "GCD queues: timeline and icons"
    static let defaultLatency = 0.15
    static let defaultBandwidth = 50_000

    @OptionGroup var common: LessonOptions
    @OptionGroup var network: NetworkOptions<Lesson03>

    @Option(help: ArgumentHelp("Timeline entries to fetch (1-500).", valueName: "n"))
    var rows = 20

    @Option(
        help: ArgumentHelp(
            "Icon fetches that may run at once in the threaded variant (1-16; the article's serial image queue is 1).",
            valueName: "k"))
    var imageWidth = 1

    func validate() throws {
        guard (1...500).contains(rows) else { throw ValidationError("--rows must be between 1 and 500 (got \(rows))") }
        guard (1...16).contains(imageWidth) else {
            throw ValidationError("--image-width must be between 1 and 16 (got \(imageWidth))")
        }
    }

    func prepare() throws -> FixtureEndpoint { try network.makeEndpoint() }

    func banner(_ endpoint: FixtureEndpoint) -> String {
        """
        Lesson 03: GCD queues. A public timeline of \(counted(rows, "post")) and their icons, from \(endpoint.baseURL.absoluteString)
        (\(endpoint.linkDescription)).
        """
    }

    func describe(_ variant: Variant) -> String {
        switch variant {
        case .threaded:
            let queues = imageWidth == 1 ? "one serial image-queue" : "\(imageWidth) image queues"
            return "threaded: timeline on timeline-queue, icons on \(queues), UI on main"
        default:
            return "no-thread: fetch the timeline, then each icon while drawing its row, all on the main thread"
        }
    }

    @MainActor
    func perform(_ variant: Variant, setup endpoint: FixtureEndpoint, output: ScreenOutput)
        -> VariantRun<TimelineDetails>
    {
        var settings = TimelineRun.Settings()
        settings.rows = rows
        settings.imageWidth = imageWidth
        settings.output = output
        // Every request may take the whole --timeout; rows + 1 of them, one after another at worst.
        settings.timeoutSeconds = Double(rows + 1) * (endpoint.knobs.latencySeconds + 1) + 2 * endpoint.timeoutSeconds
        return TimelineRun.perform(variant, endpoint: endpoint, settings: settings)
    }

    func parameters(_ endpoint: FixtureEndpoint) -> [(String, Metric)] {
        [("rows", .count(rows)), ("imageWidth", .count(imageWidth))] + endpoint.parameters
    }

    func takeaway(_ runs: [VariantRun<TimelineDetails>]) -> String {
        guard let plain = runs.first(where: { $0.name == "no-thread" }),
            let queued = runs.first(where: { $0.name == "threaded" })
        else { return "Run both variants (the default) to compare them." }
        return String(
            format: """
                Queues did not make the network faster, they kept the main thread free: the worst freeze \
                went from %.2f s to %.3f s and something was on screen after %.3f s instead of %.2f s.
                """, plain.screen.maxStallSeconds, queued.screen.maxStallSeconds,
            queued.screen.firstContentSeconds ?? 0, plain.screen.firstContentSeconds ?? 0)
    }
}
