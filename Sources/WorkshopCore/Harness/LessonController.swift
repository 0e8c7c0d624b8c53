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
    /// (finished, failed, timed out or cancelled by the user): cancelling it cancels every
    /// child task and every `await` on URLSession inside it.
    private var task: Task<Void, Never>?
    /// Whether the async variant's task has returned (its child tasks with it: a task group
    /// does not end before its children).
    private var taskEnded = true
    /// What the variant does on a cancel besides cancelling its task: cancel its operations,
    /// its cancel token, its requests in flight.
    private var cancelHandlers: [() -> Void] = []
    private var cancelled = false
    /// When the user taps Cancel, in seconds since the Screen started (the harness sets it
    /// from `--cancel-after`); nil: never.
    public var cancelAt: Double?
    /// When the main thread handled the cancel (nil: it never came). A main thread blocked by
    /// a no-thread variant handles it only between two of its blocking calls.
    public private(set) var cancelHandledAt: Double?
    /// Set by a threaded variant: whether any of its work is still queued or running (an
    /// operation queue not empty, a dispatch group not left). The harness waits for it to
    /// end before it tears anything down, so that cancelled work never finds its session gone.
    public var workInFlight: () -> Bool = { false }
    /// Called on the main thread after every change on the Screen (tests use it to act mid-run).
    public var onChange: ((String) -> Void)? {
        get { screen.onChange }
        set { screen.onChange = newValue }
    }

    public init(title: String, output: ScreenOutput, trace: Trace = Trace()) {
        screen = Screen(title: title, output: output)
        self.trace = trace
    }

    /// Whether the run is over: it failed, it was cancelled, or (in a subclass) everything is shown.
    open var isFinished: Bool { failure != nil || cancelled }

    /// How far the run got, for "gave up after N s: ...": "3 of 20 icons in".
    open var progress: String { "not finished" }

    /// Whether anything but "loading..." was shown (a run that failed before has no figures).
    open var gotStarted: Bool { !screen.table.rows.isEmpty }

    /// Shows a placeholder until the first rows arrive.
    public func showLoading(_ text: String? = nil) {
        screen.table.placeholder = text ?? localized("loading...")
    }

    /// Records the first failure and says so on the Screen's status line (the lesson prints
    /// the cause once, at the end).
    /// A failure after the run was cancelled or ended is no news (a cancelled request fails
    /// with "cancelled"): it is dropped.
    public func fail(_ message: String) {
        guard failure == nil, !cancelled else { return }
        failure = message
        screen.status = localized("failed")
    }

    /// Starts the async variant's work as a task on the main actor and returns at once (the
    /// Swift 6 counterpart of handing the work to a queue). The task runs on the real main
    /// thread whenever it is not suspended; each `await` on the network or on another actor
    /// gives the main thread back to the Screen until the answer is in.
    public func startTask(_ work: @escaping @MainActor () async -> Void) {
        taskEnded = false
        task = Task { @MainActor in
            await work()
            self.taskEnded = true
        }
    }

    /// Cancels the async variant's task, if it is still running (see `startTask`).
    public func cancelTask() {
        task?.cancel()
    }

    // MARK: - Cancel

    /// Whether the user has cancelled the run. Read it before every side effect (a request, a
    /// write, a show) and after every wait. Reading it also handles a cancel tap that came
    /// while the main thread was busy (a no-thread variant sees the tap only between its
    /// blocking calls, as an app whose main thread is blocked would).
    public var isCancelled: Bool {
        if !cancelled, let cancelAt, screen.elapsed >= cancelAt { cancel() }
        return cancelled
    }

    /// Runs `handler` on the main thread when the run is cancelled or ends: the threaded
    /// variants cancel their operations or their cancel token here.
    public func onCancel(_ handler: @escaping () -> Void) {
        if cancelled { handler() } else { cancelHandlers.append(handler) }
    }

    /// The user's Cancel, handled on the main thread: the task is cancelled, the variant's
    /// handlers run, and the status line says so. Nothing is torn down here: work already
    /// under way ends on its own, and the harness waits for it (`isWorkRunning`).
    public func cancel() {
        guard !cancelled else { return }
        cancelHandledAt = screen.elapsed
        stopWork()
        screen.status = localized("cancelled")
    }

    /// Stops the variant's work (the task and the handlers), as a cancel does, without saying
    /// "cancelled": the harness calls it when a run has ended, failed or given up.
    public func stopWork() {
        cancelled = true
        task?.cancel()
        let handlers = cancelHandlers
        cancelHandlers.removeAll()
        for handler in handlers { handler() }
    }

    /// Whether any of the variant's work is still going: its task, or its queues and threads.
    public var isWorkRunning: Bool { !taskEnded || workInFlight() }

    /// Whether the run was stopped by the user's Cancel (not only ended).
    public var wasCancelledByUser: Bool { cancelHandledAt != nil }
}
