import Foundation
import WorkshopCore

/// A random number generator with a seed, so that a run of random cancel points can be
/// repeated: the seed comes from `SAKUSAKU_SEED` when set, else from the clock, and is printed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A new generator; prints "<label>: seed N (rerun with SAKUSAKU_SEED=N)".
    public static func announced(_ label: String) -> SeededRandom {
        let given = ProcessInfo.processInfo.environment["SAKUSAKU_SEED"].flatMap { UInt64($0) }
        let seed = given ?? UInt64(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
        print("\(label): seed \(seed) (rerun with SAKUSAKU_SEED=\(seed))")
        return SeededRandom(seed: seed)
    }

    /// SplitMix64: small, fast and good enough to pick cancel points.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What is wrong with a run as a cancelled one, from its figures (empty: nothing): it must have
/// handled the cancel, stopped its work within `promptness` seconds of the tap, shown no row
/// after it and sent at most `requestsAtOnce` requests after it (a variant that sends that many
/// together may have had them on their way when the tap came). The same for a run made in this
/// process (`VariantRun`) and one read back from a program's `--json` (`LessonDocument`).
func cancelProblems(
    _ name: String, seconds: (MetricName) -> Double?, count: (MetricName) -> Int?, promptness: Double,
    requestsAtOnce: Int
) -> [String] {
    var problems: [String] = []
    guard seconds(.cancelAtSeconds) != nil else { return ["\(name): not a run with --cancel-after"] }
    if seconds(.cancelHandledSeconds) == nil { return [] }  // it had finished before the tap
    if let stopped = seconds(.stoppedAfterCancelSeconds), stopped >= promptness {
        problems.append(String(format: "\(name): work stopped %.2f s after the cancel", stopped))
    }
    if let rows = count(.rowsAfterCancel), rows > 0 { problems.append("\(name): \(rows) rows after the cancel") }
    if let requests = count(.requestsAfterCancel), requests > requestsAtOnce {
        problems.append("\(name): \(requests) requests after the cancel")
    }
    return problems
}

extension VariantRun {
    /// `cancelProblems` as each lesson asks them, and a failed run as one more: a `blocking`
    /// run (the no-thread variant, whose main thread sees the tap only between two blocking
    /// steps) is not asked to stop within 1 s, only to show and send nothing after the tap.
    public func cancelProblems(blocking: Bool, requestsAtOnce: Int = 1) -> [String] {
        var problems = LessonTestSupport.cancelProblems(
            name, seconds: seconds, count: count, promptness: blocking ? .infinity : 1, requestsAtOnce: requestsAtOnce)
        if let failure { problems.append("\(name): failed: \(failure)") }
        return problems
    }
}

extension LessonDocument {
    /// `cancelProblems` of the run named `name` in a program's `--json` report, as
    /// `VariantRun.cancelProblems(blocking:requestsAtOnce:)` asks them of a run in this process.
    public func cancelProblems(_ name: String, blocking: Bool, requestsAtOnce: Int = 1) -> [String] {
        let metrics = metrics(name)
        var problems = LessonTestSupport.cancelProblems(
            name, seconds: { metrics[$0] as? Double }, count: { metrics[$0] as? Int },
            promptness: blocking ? .infinity : 1, requestsAtOnce: requestsAtOnce)
        if let failure = failure(name) { problems.append("\(name): failed: \(failure)") }
        return problems
    }
}

/// The random-cancel test every lesson has beside each variant: `tries` runs of each of `kinds`,
/// each cancelled at a random point within `window` seconds, from a printed seed
/// (`SAKUSAKU_SEED=N` reruns the same points); a run is one in this process (`VariantRun`) or
/// a program's report (`LessonDocument`). Returns each run's `problems`, with its kind,
/// its cancel point and the seed (empty: none).
public func randomCancelProblems<Kind, Run>(
    _ label: String, _ kinds: [Kind], tries: Int = 3, within window: ClosedRange<Double>,
    run: (Kind, Double) throws -> Run, problems: (Run, Kind) throws -> [String]
) rethrows -> [String] {
    var random = SeededRandom.announced(label)
    var found: [String] = []
    for kind in kinds {
        for _ in 0..<tries {
            let at = Double.random(in: window, using: &random)
            let cancelled = try run(kind, at)
            found += try problems(cancelled, kind).map { "\($0) (\(kind) cancelled at \(at) s, seed \(random.seed))" }
        }
    }
    return found
}
