// What exercise 03a's file codes against: the icons' source and the table's rows, as the app
// gives them. Compiled with your file, the checks and the driver (and seen by your editor
// through ../compile_flags.txt).
import ExerciseChecks
import Foundation
import WorkshopCore

/// Where exercise 03a's icons come from: a fake network whose requests each take their own
/// time (so they finish out of order) and which counts how many are in flight at once.
/// `icon(named:)` suspends the calling task; it holds no thread while it waits.
public struct IconSource: Sendable {
    /// The name whose fetch fails, as a broken image URL would.
    public static let brokenName = "ghost"

    let latency: Double
    /// In flight now and at the busiest moment. A lock, not an actor, so counting adds no
    /// suspension point of its own to the fetch it counts.
    let inFlight = Locked((now: 0, peak: 0))
    /// No answer comes before `holdUntil` fetches are in flight at once (or, once, `holdTimeout`
    /// passed): a loader that starts `width` fetches at once shows it however slow the machine,
    /// and one that fetches one at a time waits for the timeout once, then runs freely.
    let hold = AsyncGate()
    let holdUntil: Int
    static let holdTimeout = 1.0

    public init(latency: Double) { self.init(latency: latency, holdUntil: 1) }

    init(latency: Double, holdUntil: Int) {
        self.latency = latency
        self.holdUntil = holdUntil
    }

    /// The icon's bytes: its name's, so a row shows whose icon it got. Throws for `brokenName`.
    public func icon(named name: String) async throws -> [UInt8] {
        let now = inFlight.withLock { counts in
            counts.now += 1
            counts.peak = max(counts.peak, counts.now)
            return counts.now
        }
        defer { inFlight.withLock { $0.now -= 1 } }
        if now >= holdUntil { hold.open() }
        if try await !hold.wait(timeout: Self.holdTimeout) { hold.open() }
        // 0.5 to 2 times `latency`, different for each name, so answers come back out of order.
        let spread = Double(name.unicodeScalars.reduce(0) { $0 + Int($1.value) } % 7) / 4
        try await Task.sleep(nanoseconds: UInt64(latency * (0.5 + spread) * 1e9))
        if name == Self.brokenName { throw URLError(.badServerResponse) }
        return Array("icon of \(name)".utf8)
    }

    public var peakInFlight: Int { inFlight.current.peak }
}

/// The rows of exercise 03a's table. It belongs to the main actor, like a UIKit table: the
/// compiler refuses a synchronous `setIcon` from code off the main actor (a child task may
/// `await rows.setIcon(...)`, which hops to main), and `setIcon` also records whether it
/// really ran on the main thread.
@MainActor
public final class IconRows {
    public private(set) var icons: [[UInt8]?]
    /// For each `setIcon` call: was it on main, as the main actor's executor says (`MainPlace`:
    /// the main queue, or the main thread that serves it)?
    public private(set) var setOnMainThread: [Bool] = []

    public init(count: Int) { icons = Array(repeating: nil, count: count) }

    public var count: Int { icons.count }

    /// Shows `icon` (nil: the placeholder) on row `row`.
    public func setIcon(_ icon: [UInt8]?, row: Int) {
        setOnMainThread.append(MainPlace.here.isMain)
        guard icons.indices.contains(row) else { return }
        icons[row] = icon
    }
}
