import Foundation
import Synchronization

#if !WORKLOAD_ONLY
    import ExerciseChecks
#endif

// The workload: a table of 8 rows whose cells ask for their icons on the main actor, 5 times
// each (the rows scroll away and back), as lesson 03's table does. The fetch is this program's
// own fake network: it counts the requests per icon and where they ran, and each callback
// records its icon and where it ran. Prints one line (see `ExerciseR3Checks.Line`).
// It lives here and not in the checks' library because the thread-sanitized build
// (`-D WORKLOAD_ONLY`) must not load that unsanitized library.

let iconNames = ["a", "b", "c", "d", "e", "f", "g", "h"]
let rounds = 5
/// Set on the main queue only: `DispatchQueue.getSpecific` finds it there and nowhere else.
let mainQueueKey = DispatchSpecificKey<Bool>()

func icon(of name: String) -> [UInt8] { Array("icon of \(name)".utf8) }

func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

/// What happened, written from any thread: a mutex guards it, because fetches and callbacks
/// run wherever the learner's code runs them.
final class Evidence: Sendable {
    struct State {
        var fetches: [String: Int] = [:]
        var fetchesOnMain = 0
        var calledBack = 0
        var gotTheirIcon = 0
        var callbacksOffMain: [String] = []
        var allIn: CheckedContinuation<Void, Never>?
        var waitEnded = false
    }
    private let state = Mutex(State())
    let expected = iconNames.count * rounds

    func fetched(_ name: String) {
        let onMain = onMainQueue()
        state.withLock {
            $0.fetches[name, default: 0] += 1
            if onMain { $0.fetchesOnMain += 1 }
        }
    }

    func calledBack(_ name: String, with bytes: [UInt8]) {
        let place = onMainQueue() ? nil : (Thread.isMainThread ? "the main thread but not its queue" : "another thread")
        let allIn: CheckedContinuation<Void, Never>? = state.withLock {
            $0.calledBack += 1
            if bytes == icon(of: name) { $0.gotTheirIcon += 1 }
            if let place { $0.callbacksOffMain.append("icon \(name) on \(place)") }
            guard $0.calledBack == expected, !$0.waitEnded else { return nil }
            $0.waitEnded = true
            return $0.allIn.take()
        }
        allIn?.resume()
    }

    /// Returns when every caller was called back, or after `seconds`: the line then says how
    /// many were not.
    func waitForEveryCallback(seconds: Double) async {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.endWait() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock {
                if $0.waitEnded { return true }
                $0.allIn = continuation
                return false
            }
            if ended { continuation.resume() }
        }
    }

    private func endWait() {
        let waiting: CheckedContinuation<Void, Never>? = state.withLock {
            $0.waitEnded = true
            return $0.allIn.take()
        }
        waiting?.resume()
    }

    func line(active: Int) -> String {
        state.withLock { state in
            let fetches = iconNames.map { "\($0)=\(state.fetches[$0] ?? 0)" }.joined(separator: " ")
            let off = state.callbacksOffMain
            return "fetches \(fetches); \(state.gotTheirIcon) of \(expected) callers got their icon; "
                + "\(state.calledBack) callbacks; \(active) requests active"
                + " | \(off.count) callbacks off the main actor\(off.first.map { " (first: \($0))" } ?? "");"
                + " \(state.fetchesOnMain) fetches on the main actor"
        }
    }
}

/// The cells: on the main actor, each row asks for its icon, round after round; between rounds
/// the table scrolls (a short pause), so later asks meet icons on their way and icons in.
@MainActor
func askForIcons(_ loader: IconLoader, _ evidence: Evidence) async {
    for round in 0..<rounds {
        for name in iconNames {
            await loader.loadIcon(named: name) { @Sendable bytes in evidence.calledBack(name, with: bytes) }
        }
        usleep(UInt32(400 + round * 300))
    }
}

func workload() async -> String {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let evidence = Evidence()
    let loader = IconLoader { name in
        evidence.fetched(name)
        // The network: 0.3-2 ms, different for each icon.
        usleep(UInt32(300 + (name.unicodeScalars.first.map { Int($0.value) } ?? 0) * 7_919 % 1_700))
        return icon(of: name)
    }
    await askForIcons(loader, evidence)
    await evidence.waitForEveryCallback(seconds: 10)
    return evidence.line(active: await IconLoader.activeRequests)
}

#if WORKLOAD_ONLY
    // Unbuffered: a run that the sanitizer ends with exit code 66 still shows its line.
    FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
#else
    if CommandLine.arguments.contains("--workload") {
        FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
    } else {
        ExerciseDriver.report(ExerciseR3Checks.run(source: ExerciseDriver.source("IconLoader.swift")))
    }
#endif
