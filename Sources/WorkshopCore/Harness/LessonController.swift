/// The "view controller" of a lesson: it owns the Screen and knows how to show results on
/// it, but never fetches or computes anything itself; the variants decide where that work
/// runs and hand each result to it.
///
/// Like a `UIViewController` it lives on the main thread: it is `@MainActor`, so the
/// compiler rejects a call from any other thread, and code on a queue reaches it with
/// `DispatchQueue.main.async { controller.show(...) }` (2010) or `await` (Swift 6).
/// A lesson subclasses it and adds what it shows; `isFinished` says when the run is over.
@MainActor
open class LessonController {
    public let screen: Screen
    /// What ran where and when. Any thread may record into it.
    public nonisolated let trace: Trace
    /// Why the run failed, once it has: the first failure wins.
    public private(set) var failure: String?
    /// The async variant's top task, kept so the harness can cancel it when the run ends
    /// (finished, failed or timed out): cancelling it cancels every child task and every
    /// `await` on URLSession inside it, so nothing keeps running after the table is printed.
    private var task: Task<Void, Never>?
    /// Called on the main thread after every change on the Screen (tests use it to act mid-run).
    public var onChange: ((String) -> Void)? {
        get { screen.onChange }
        set { screen.onChange = newValue }
    }

    public init(title: String, output: ScreenOutput, trace: Trace = Trace()) {
        screen = Screen(title: title, output: output)
        self.trace = trace
    }

    /// Whether the run is over: it failed, or (in a subclass) everything is shown.
    open var isFinished: Bool { failure != nil }

    /// How far the run got, for "gave up after N s: ...": "3 of 20 icons in".
    open var progress: String { "not finished" }

    /// Whether anything but "loading..." was shown (a run that failed before has no figures).
    open var gotStarted: Bool { !screen.table.rows.isEmpty }

    /// Shows a placeholder until the first rows arrive.
    public func showLoading(_ text: String = "loading...") {
        screen.table.placeholder = text
    }

    /// Records the first failure and says so on the Screen's status line (the lesson prints
    /// the cause once, at the end).
    public func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        screen.status = "failed"
    }

    /// Starts the async variant's work as a task on the main actor and returns at once (the
    /// Swift 6 counterpart of handing the work to a queue). The task runs on the real main
    /// thread whenever it is not suspended; each `await` on the network or on another actor
    /// gives the main thread back to the Screen until the answer is in.
    public func startTask(_ work: @escaping @MainActor () async -> Void) {
        task = Task { @MainActor in await work() }
    }

    /// Cancels the async variant's task, if it is still running (see `startTask`).
    public func cancelTask() {
        task?.cancel()
        task = nil
    }
}
