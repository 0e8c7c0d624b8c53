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

let iconNames = ["a", "b", "c", "d", "e", "f", "g", "h"]
/// Cells asking for each icon while it is on its way.
let cellsPerIcon = 5
/// Set on the main queue only: `DispatchQueue.getSpecific` finds it there and nowhere else.
let mainQueueKey = DispatchSpecificKey<Bool>()

func icon(of name: String) -> [UInt8] { Array("icon of \(name)".utf8) }

func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

/// What happened, written from any thread: `lock` guards `state`, because fetches and callbacks
/// run wherever the learner's code runs them. An NSLock (a pthread mutex), not Synchronization's
/// Mutex: on Linux that one waits on a futex the thread sanitizer does not see, so the
/// sanitized run would report races inside its `withLock`.
final class Evidence: @unchecked Sendable {  // @unchecked: `lock` guards `state`
    struct State {
        var fetches: [String: Int] = [:]
        var fetchesOnMain = 0
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

    func fetched(_ name: String) {
        let onMain = onMainQueue()
        withState {
            $0.fetches[name, default: 0] += 1
            if onMain { $0.fetchesOnMain += 1 }
        }
    }

    func calledBack(_ name: String, with bytes: [UInt8]) {
        let place = onMainQueue() ? nil : (Thread.isMainThread ? "the main thread but not its queue" : "another thread")
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
            return "fetches \(fetches); \(state.gotTheirIcon) of \(expected) callers got their icon; "
                + "\(state.calledBack) callbacks; \(active) requests active"
                + " | \(off.count) callbacks off the main actor\(off.first.map { " (first: \($0))" } ?? "");"
                + " \(state.fetchesOnMain) fetches on the main actor"
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

#if WORKLOAD_ONLY
    // Unbuffered: a run that the sanitizer ends with exit code 66 still shows its line.
    FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
#else
    if CommandLine.arguments.contains("--workload") {
        FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
    } else {
        ExerciseDriver.run(ExerciseR3Checks.all) {
            ExerciseR3Checks.run(source: ExerciseDriver.source("IconLoader.swift"))
        }
    }
#endif
