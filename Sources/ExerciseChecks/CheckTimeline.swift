import Foundation
import WorkshopCore

/// What a check's run looked like over time, for `workshop check NN --svg`: what ran in which
/// lane (the main thread, a queue, the task pool), and when the main thread froze. A check
/// that records one draws the learner's run and the reference's on one picture, so the fix
/// is something you see, not only a verdict.
public struct CheckTimeline: Codable, Sendable, Equatable {
    public struct Span: Codable, Sendable, Equatable {
        public var lane: String
        public var name: String
        public var start: Double
        public var end: Double
    }
    /// Seconds since the recording started.
    public var spans: [Span] = []
    /// The main thread's freezes, as [start, end] seconds.
    public var stalls: [[Double]] = []
    /// How long the recording ran.
    public var seconds = 0.0

    /// The line a driver prints it on, after this marker, as JSON.
    public static let marker = "WORKSHOP-TIMELINE "

    /// This timeline as one run of a picture.
    public func pictureRun(name: String, failure: String?) -> TimelinePicture.Run {
        TimelinePicture.Run(
            name: name, spans: spans.map { Trace.Span(lane: $0.lane, name: $0.name, start: $0.start, end: $0.end) },
            stalls: stalls.compactMap { $0.count == 2 ? Stall(start: $0[0], end: $0[1]) : nil },
            firstContentSeconds: nil, doneSeconds: seconds,
            droppedFrames: stalls.reduce(0) { $0 + max(0, Int((($1.last ?? 0) - ($1.first ?? 0)) / 0.016) - 1) },
            failure: failure)
    }

    /// The timeline in a driver's output, or nil when it recorded none.
    public static func read(in output: String) -> CheckTimeline? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(marker) }) else { return nil }
        return try? JSONDecoder().decode(CheckTimeline.self, from: Data(line.dropFirst(marker.count).utf8))
    }
}

/// The driver process's recording (one per check program). The checks call it from any
/// thread: a lock guards it.
public enum CheckTimelineRecorder {
    private struct State {
        var startedAt: Double?
        var timeline = CheckTimeline()
    }
    private static let state = Locked(State())

    /// Starts the clock (monotonic seconds from now on are the picture's time zero).
    public static func start() {
        state.withLock { $0 = State(startedAt: monotonicSeconds()) }
    }

    /// One thing that ran in `lane` from `start` to `end` (monotonic seconds).
    public static func span(_ lane: String, _ name: String, from start: Double, to end: Double) {
        state.withLock { state in
            guard let zero = state.startedAt else { return }
            state.timeline.spans.append(.init(lane: lane, name: name, start: start - zero, end: end - zero))
        }
    }

    /// The main thread's freezes a `StallMeter` saw, and the end of the recording.
    public static func finish(stalls meter: StallMeter) {
        let now = monotonicSeconds()
        state.withLock { state in
            guard let zero = state.startedAt else { return }
            state.timeline.stalls = meter.stalls.map { [$0.start - zero, $0.end - zero] }
            state.timeline.seconds = now - zero
        }
    }

    /// Prints the recording for the runner, if anything was recorded.
    static func report() {
        let timeline = state.withLock { $0.startedAt == nil ? nil : $0.timeline }
        guard let timeline, let json = try? JSONEncoder().encode(timeline) else { return }
        FileHandle.standardOutput.write(
            Data((CheckTimeline.marker + String(decoding: json, as: UTF8.self) + "\n").utf8))
    }
}
