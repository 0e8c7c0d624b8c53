import Foundation

#if !WORKLOAD_ONLY
    import ExerciseChecks
#endif

// The workload: a table of 8 rows whose cells ask for their icons on the main actor, 5 cells
// per icon at once (rows scrolled away and back while the icons are on their way), then once
// more when every icon is in, as lesson 03's table does. The fetch is this program's own fake
// network: it counts the requests per icon and where they ran, and each callback records its
// icon and where it ran. Prints one line (read by `ExerciseR3Checks.WorkloadRun`).
// It lives here and not in the checks' library because the thread-sanitized build
// (`-D WORKLOAD_ONLY`) must not load that unsanitized library.
//
// It runs as an app does: the main thread turns the main run loop, which serves the main queue,
// the main actor's executor. (An async top-level `main` would leave the main queue to other
// threads after a while, issue 90851, where a `queue.sync` made on the main actor is main by
// neither its queue nor its thread.)

let iconNames = ["a", "b", "c", "d", "e", "f", "g", "h"]
/// Cells asking for each icon while it is on its way.
let cellsPerIcon = 5
/// Set on the main queue only: `DispatchQueue.getSpecific` finds it there and nowhere else.
let mainQueueKey = DispatchSpecificKey<Bool>()

func icon(of name: String) -> [UInt8] { Array("icon of \(name)".utf8) }

/// Whether the caller holds the main actor, as its executor (the main queue) says: the main
/// queue is the current queue, or this is the main thread, which holds the main queue while it
/// serves it (also inside a `queue.sync` it makes). WorkshopCore's `MainPlace` rule, which this
/// program cannot import in its sanitized build.
func onMainActor() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true || Thread.isMainThread }

/// The label of the dispatch queue running the caller now (`dispatch_queue_get_label(NULL)`,
/// which Swift's Dispatch module does not offer; looked up by name), or "" without one.
func currentQueueLabel() -> String {
    typealias GetLabel = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    #if canImport(Glibc)
        let symbol = dlsym(nil, "dispatch_queue_get_label")
    #else
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "dispatch_queue_get_label")  // RTLD_DEFAULT
    #endif
    guard let symbol, let label = unsafeBitCast(symbol, to: GetLabel.self)(nil) else { return "" }
    return String(cString: label)
}

/// Whether a blocking call made here holds a thread of Swift's cooperative thread pool, and on
/// what queue: nil when it does not. It does when the caller is a task's synchronous code (not
/// on the main actor) run by the pool's own queue, or hopped from it with `sync` onto a global
/// queue. On Linux the pool is one dispatch queue, "Swift global concurrent queue", as wide as
/// the machine has cores (the Swift runtime's DispatchGlobalExecutor); on Apple platforms it is
/// the global queues' cooperative ones ("com.apple.root.default-qos.cooperative"). A
/// `@concurrent` function, a child task, `Task.detached` and an actor on the default executor
/// run there. Work a task hands to `DispatchQueue.global().async` runs outside any task, and an
/// actor on an executor of its own runs on its own queue: neither is the pool.
func poolQueue() -> String? {
    guard withUnsafeCurrentTask(body: { $0 != nil }), !onMainActor() else { return nil }
    let label = currentQueueLabel()
    return label == "Swift global concurrent queue" || label.hasPrefix("com.apple.root.") ? label : nil
}

/// What happened, written from any thread: `lock` guards `state`, because fetches and callbacks
/// run wherever the learner's code runs them. An NSLock (a pthread mutex), not Synchronization's
/// Mutex: on Linux that one waits on a futex the thread sanitizer does not see, so the
/// sanitized run would report races inside its `withLock`.
final class Evidence: @unchecked Sendable {  // @unchecked: `lock` guards `state`
    struct State {
        var fetches: [String: Int] = [:]
        var fetchesOnMain = 0
        /// "icon a on Swift global concurrent queue" for each fetch that blocked a pool thread.
        var fetchesInPool: [String] = []
        var calledBack = 0
        var gotTheirIcon = 0
        var callbacksOffMain: [String] = []
        /// The count of callbacks the workload waits for, and its continuation.
        var awaited = 0
        var allIn: CheckedContinuation<Void, Never>?
    }
    private let lock = NSLock()
    private var state = State()

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
    /// Every cell's ask: `cellsPerIcon` per icon at first, then one more per icon.
    let expected = iconNames.count * (cellsPerIcon + 1)

    /// Called by the fake network, on the thread the fetch blocks.
    func fetched(_ name: String) {
        let onMain = onMainActor()
        let pool = poolQueue()
        withState {
            $0.fetches[name, default: 0] += 1
            if onMain { $0.fetchesOnMain += 1 }
            if let pool { $0.fetchesInPool.append("icon \(name) on \(pool)") }
        }
    }

    func calledBack(_ name: String, with bytes: [UInt8]) {
        let place = onMainActor() ? nil : "another thread"
        let allIn: CheckedContinuation<Void, Never>? = withState {
            $0.calledBack += 1
            if bytes == icon(of: name) { $0.gotTheirIcon += 1 }
            if let place { $0.callbacksOffMain.append("icon \(name) on \(place)") }
            return $0.calledBack >= $0.awaited ? $0.allIn.take() : nil
        }
        allIn?.resume()
    }

    /// Returns when `count` callbacks have come in, or after `seconds`: the line then says how
    /// many callers were not called back.
    func waitForCallbacks(_ count: Int, seconds: Double) async {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.endWait(for: count) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let allIn = withState {
                $0.awaited = count
                if $0.calledBack >= count { return true }
                $0.allIn = continuation
                return false
            }
            if allIn { continuation.resume() }
        }
    }

    /// Ends the wait for `count` callbacks, if it still waits (its time is up).
    private func endWait(for count: Int) {
        withState { $0.awaited == count ? $0.allIn.take() : nil }?.resume()
    }

    func line(active: Int) -> String {
        withState { state in
            let fetches = iconNames.map { "\($0)=\(state.fetches[$0] ?? 0)" }.joined(separator: " ")
            let off = state.callbacksOffMain
            let pool = state.fetchesInPool
            return "fetches \(fetches); \(state.gotTheirIcon) of \(expected) callers got their icon; "
                + "\(state.calledBack) callbacks; \(active) requests active"
                + " | \(off.count) callbacks off the main actor\(off.first.map { " (first: \($0))" } ?? "");"
                + " \(state.fetchesOnMain) fetches on the main actor"
                + " | \(pool.count) fetches blocked a thread of the task pool\(pool.first.map { " (first: \($0))" } ?? "")"
        }
    }
}

/// The cells: on the main actor, `cells` cells ask for each icon.
@MainActor
func askForIcons(_ loader: IconLoader, _ evidence: Evidence, cells: Int) async {
    for _ in 0..<cells {
        for name in iconNames {
            await loader.loadIcon(named: name) { @Sendable bytes in evidence.calledBack(name, with: bytes) }
        }
    }
}

func workload() async -> String {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let evidence = Evidence()
    let loader = IconLoader { name in
        evidence.fetched(name)
        // The network: 20-50 ms, different for each icon; long beside the microseconds the 40
        // asks take, so that they all come while the icons are on their way, even on a busy machine.
        usleep(UInt32(20_000 + (name.unicodeScalars.first.map { Int($0.value) } ?? 0) * 7_919 % 30_000))
        return icon(of: name)
    }
    await askForIcons(loader, evidence, cells: cellsPerIcon)
    await evidence.waitForCallbacks(iconNames.count * cellsPerIcon, seconds: 10)
    // Scrolled back once every icon is in: the cache answers, with no request.
    await askForIcons(loader, evidence, cells: 1)
    await evidence.waitForCallbacks(evidence.expected, seconds: 10)
    return evidence.line(active: await IconLoader.activeRequests)
}

/// The workload's line, from a main-actor task that the main thread's run loop serves (at most
/// 30 s; the checks stop a run that never ends before that).
func runWorkloadOnTheMainRunLoop() -> String {
    final class Line: @unchecked Sendable {  // @unchecked: `lock` guards `text`
        private let lock = NSLock()
        private var text: String?
        var current: String? { lock.withLock { text } }
        func set(_ line: String) { lock.withLock { text = line } }
    }
    let line = Line()
    Task { @MainActor in line.set(await workload()) }
    let deadline = Date(timeIntervalSinceNow: 30)
    while line.current == nil && Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.05)))
    }
    return line.current ?? "no line within 30 s"
}

#if WORKLOAD_ONLY
    // Unbuffered: a run that the sanitizer ends with exit code 66 still shows its line.
    FileHandle.standardOutput.write(Data((runWorkloadOnTheMainRunLoop() + "\n").utf8))
#else
    if CommandLine.arguments.contains("--workload") {
        FileHandle.standardOutput.write(Data((runWorkloadOnTheMainRunLoop() + "\n").utf8))
    } else {
        ExerciseDriver.run(ExerciseR3Checks.all) {
            ExerciseR3Checks.run(source: ExerciseDriver.source("IconLoader.swift"))
        }
    }
#endif
