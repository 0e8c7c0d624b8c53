import Dispatch

/// Measures how responsive the main thread is. A timer on the main queue is meant to tick
/// every 16 ms (one frame at 60 fps); when the main thread is busy, the tick comes late.
/// The longest gap between ticks is the worst freeze the user saw ("max stall"); each
/// whole frame that passed without a tick is a dropped frame.
public final class StallMeter {
    public let frameSeconds: Double
    private var timer: DispatchSourceTimer?
    private var lastTick = 0.0
    public private(set) var maxStallSeconds = 0.0
    public private(set) var droppedFrames = 0
    public private(set) var ticks = 0
    /// Every gap long enough to drop a frame, as monotonic start and end seconds.
    public private(set) var stalls: [(start: Double, end: Double)] = []
    private let onTick: () -> Void

    /// `onTick` runs on the main queue at each frame (the Screen draws there).
    public init(frameSeconds: Double = 0.016, onTick: @escaping () -> Void = {}) {
        self.frameSeconds = frameSeconds
        self.onTick = onTick
    }

    public func start() {
        requireMainQueue()
        lastTick = monotonicSeconds()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + frameSeconds, repeating: frameSeconds, leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
    }

    /// Counts the gap since the last tick (the freeze may still be going on), then stops.
    public func stop() {
        requireMainQueue()
        record(gapUntil: monotonicSeconds())
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        record(gapUntil: monotonicSeconds())
        ticks += 1
        onTick()
    }

    private func record(gapUntil now: Double) {
        let gap = now - lastTick
        if gap >= 2 * frameSeconds { stalls.append((lastTick, now)) }
        lastTick = now
        maxStallSeconds = max(maxStallSeconds, gap)
        droppedFrames += max(0, Int(gap / frameSeconds) - 1)
    }
}
