import Foundation

/// Records what ran where and when, and prints it as a text timeline: one lane per thread or
/// queue, time running left to right. Safe to call from any thread (a lock guards the spans).
public final class Trace: Sendable {
    public struct Span: Sendable {
        public var lane: String
        public var name: String
        public var start: Double
        public var end: Double

        public init(lane: String, name: String, start: Double, end: Double) {
            self.lane = lane
            self.name = name
            self.start = start
            self.end = end
        }
    }

    private let clock = Stopwatch()
    private let spans = Locked<[Span]>([])

    public init() {}

    /// Runs `work` and records it in `lane`, which names where the caller means it to run ("task
    /// pool", "writer actor"), or else in `currentLane()`. Work that started on main, by
    /// `MainPlace` (the main queue, whichever thread serves it, or the main thread), is recorded
    /// on "main" whatever `lane` says: the picture shows where it ran, not where it was meant to.
    /// (With the upcoming feature
    /// `NonisolatedNonsendingByDefault` on, as Package.swift has it, a `nonisolated` async function
    /// called from the main actor runs there; this is how the timeline shows it.)
    public func measure<T, Failure: Error>(
        _ name: String, lane: String? = nil, _ work: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let start = clock.elapsed
        let ranOn = MainPlace.here.isMain ? "main" : (lane ?? Trace.currentLane())
        defer {
            let span = Span(lane: ranOn, name: name, start: start, end: clock.elapsed)
            spans.withLock { $0.append(span) }
        }
        return try work()
    }

    /// The lane for time an async variant spends suspended in `await`: no thread is held
    /// while it waits, which is the point of async/await, so the picture shows it apart.
    public static let awaitingLane = "awaiting (no thread)"

    /// The async form of `measure`: runs `work` in the caller's isolation (the main actor, an
    /// actor, or none) and records it in `lane`, or else in `currentLane()` as it was when `work`
    /// started. Unlike the synchronous form, it does not move the span to "main" by `MainPlace`:
    /// the lane is the caller's word, and the span runs from start to end, any time `work` spent
    /// suspended included.
    public func measure<T, Failure: Error>(
        _ name: String, lane: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ work: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let start = clock.elapsed
        let lane = lane ?? Trace.currentLane()
        defer {
            let span = Span(lane: lane, name: name, start: start, end: clock.elapsed)
            spans.withLock { $0.append(span) }
        }
        return try await work()
    }

    public var recorded: [Span] { spans.current }

    /// Seconds since this trace was made (its spans' time zero).
    public var elapsed: Double { clock.elapsed }

    static let laneKey = DispatchSpecificKey<String>()

    /// The lane of the code running now: the label of the queue made with
    /// `DispatchQueue.named(_:)` that is current (or that the current queue targets); else
    /// "main" when `MainPlace` says main (the main queue, or the main thread); else "other
    /// thread". The main thread inside a `sync` on a named queue is that queue's lane here;
    /// `measure` records such work on "main".
    public static func currentLane() -> String {
        DispatchQueue.main.setSpecific(key: laneKey, value: "main")
        return DispatchQueue.getSpecific(key: laneKey) ?? (MainPlace.here.isMain ? "main" : "other thread")
    }

    /// One line per lane, in `laneOrder`: '█' where something ran, '·' where the lane was idle.
    public func timeline(width: Int = 60) -> String {
        let spans = recorded
        guard let end = spans.map(\.end).max(), end > 0 else { return localized("(nothing recorded)") }
        let lanes = Self.laneOrder(spans)
        let labelWidth = lanes.map(\.count).max() ?? 4
        var lines = lanes.map { lane -> String in
            var cells = Array(repeating: Character("·"), count: width)
            for span in spans where span.lane == lane {
                let from = min(width - 1, Int(span.start / end * Double(width)))
                let to = max(from, min(width - 1, Int(span.end / end * Double(width)) - 1))
                for i in from...to { cells[i] = "█" }
            }
            return lane.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + " |" + String(cells) + "|"
        }
        lines.append(
            String(repeating: " ", count: labelWidth) + "  0" + String(repeating: " ", count: max(0, width - 8))
                + String(format: "%.2f s", end))
        return lines.joined(separator: "\n")
    }
}

extension Trace {
    /// Lanes in the order a reader wants them, in the text timeline and the picture alike: main
    /// first, then in order of first use, except that lanes named alike but for a number at the
    /// end ("image-queue-1" ... "image-queue-4") stand together, by their number, where the first
    /// of them was first used. Four queues started together begin in any order (their first
    /// spans start within a millisecond), so the order of first use alone printed
    /// image-queue-1, 4, 3, 2 in one run and another order in the next.
    public static func laneOrder(_ spans: [Span]) -> [String] {
        var byFirstUse: [String] = []
        for span in spans.sorted(by: { $0.start < $1.start }) where !byFirstUse.contains(span.lane) {
            byFirstUse.append(span.lane)
        }
        var lanes: [String] = []
        for lane in byFirstUse where !lanes.contains(lane) {
            guard let (stem, _) = numbered(lane) else {
                lanes.append(lane)
                continue
            }
            let family = byFirstUse.compactMap { other in
                numbered(other).flatMap { $0.stem == stem ? (other, $0.number) : nil }
            }
            lanes += family.sorted { $0.1 < $1.1 }.map(\.0)
        }
        if let main = lanes.firstIndex(of: "main") { lanes.insert(lanes.remove(at: main), at: 0) }
        return lanes
    }

    /// "image-queue-12" as ("image-queue-", 12); nil for a name that does not end in a number
    /// after something else.
    static func numbered(_ lane: String) -> (stem: String, number: Int)? {
        let digits = lane.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < lane.count, let number = Int(String(digits.reversed())) else {
            return nil
        }
        return (String(lane.dropLast(digits.count)), number)
    }
}

extension DispatchQueue {
    /// A serial queue whose label the `Trace` can read (Linux offers no public way to ask a
    /// queue for the label of the queue running now, so the label is stored on the queue).
    public static func named(_ label: String, attributes: DispatchQueue.Attributes = []) -> DispatchQueue {
        let queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: Trace.laneKey, value: label)
        return queue
    }
}
