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
/// compiler only lets main-actor code set an icon, and `setIcon` also records whether it really
/// ran on the main thread.
@MainActor
public final class IconRows {
    public private(set) var icons: [[UInt8]?]
    /// For each `setIcon` call: was it on the main thread?
    public private(set) var setOnMainThread: [Bool] = []

    public init(count: Int) { icons = Array(repeating: nil, count: count) }

    public var count: Int { icons.count }

    /// Shows `icon` (nil: the placeholder) on row `row`.
    public func setIcon(_ icon: [UInt8]?, row: Int) {
        setOnMainThread.append(Thread.isMainThread)
        guard icons.indices.contains(row) else { return }
        icons[row] = icon
    }
}

/// The checks of exercise 03a (Exercises/03a-icon-task-group): icons fetched in a task group
/// of a given width, each set on the main actor on its own row.
public enum Exercise03aChecks {
    public typealias LoadIcons = @MainActor @Sendable ([String], Int, IconSource, IconRows) async -> Void

    public static let names = [
        "aiko", "ben", "chiyo", "daichi", "emi", IconSource.brokenName, "fumio", "gin", "hana", "isamu", "jun", "kei",
    ]
    /// Each fetch takes 0.5 to 2 times this (after the first `width` are all in flight, see
    /// `IconSource`), so the answers come back out of order.
    public static let latency = 0.05
    /// Two widths, so a loader that ignores `width` cannot pass by luck.
    public static let widths = [2, 4]
    /// How long one load may take: both stay inside the 20 s a check program may run.
    static let loadSeconds = 8.0

    struct Run {
        var finished = false
        var icons: [[UInt8]?] = []
        var onMain: [Bool] = []
        var peak = 0
    }

    /// Runs `loadIcons` on the main actor in a task and turns the main loop until it ends.
    @MainActor
    static func load(_ loadIcons: @escaping LoadIcons, width: Int) -> Run {
        let source = IconSource(latency: latency, holdUntil: min(width, names.count))
        let rows = IconRows(count: names.count)
        let ended = MainActorFlag()
        let task = Task { @MainActor in
            await loadIcons(names, width, source, rows)
            ended.isSet = true
        }
        let finished = MainLoop.run(timeout: loadSeconds) { ended.isSet }
        task.cancel()
        return Run(finished: finished, icons: rows.icons, onMain: rows.setOnMainThread, peak: source.peakInFlight)
    }

    /// What the serial loader (the file as shipped) shows: each row its own icon, the broken one empty.
    static var serialIcons: [[UInt8]?] {
        names.map { $0 == IconSource.brokenName ? nil : Array("icon of \($0)".utf8) }
    }

    /// Runs every check against `loadIcons`. Call on the main thread: it turns the main run loop.
    @MainActor
    public static func run(_ loadIcons: @escaping LoadIcons) -> [CheckResult] {
        let runs = widths.map { load(loadIcons, width: $0) }
        let peaks = runs.map(\.peak)
        let widthsText = widths.map(String.init).joined(separator: localized(", then "))
        let peaksText = peaks.map(String.init).joined(separator: localized(", then "))
        let allFinished = runs.allSatisfy(\.finished)
        let wrongRows = runs.map { run in
            run.icons.indices.filter { names[$0] != IconSource.brokenName && run.icons[$0] != serialIcons[$0] }
        }
        let offMain = runs.flatMap(\.onMain).filter { !$0 }.count
        let setCalls = runs.flatMap(\.onMain).count
        return [
            CheckResult(
                name: "fetches `width` icons at once",
                passed: zip(peaks, widths).allSatisfy { $0 >= $1 },
                expected: localized(
                    format: "with a width of %1$@: %2$@ fetches in flight at the busiest moment", widthsText, widthsText
                ),
                got: localized(format: "at most %@", peaksText), hint: 1),
            CheckResult(
                name: "never more than `width` fetches at once",
                passed: zip(peaks, widths).allSatisfy { $0 <= $1 },
                expected: localized(
                    format: "with a width of %1$@: never more than %2$@ fetches in flight", widthsText, widthsText),
                got: localized(format: "at most %@", peaksText), hint: 2),
            CheckResult(
                name: "every icon on its own row",
                passed: allFinished && wrongRows.allSatisfy(\.isEmpty),
                expected: localized(
                    format: "each of the %d rows shows its own name's icon when loadIcons returns", names.count),
                got: !allFinished
                    ? localized(format: "loadIcons did not return within %d s", Int(loadSeconds))
                    : wrongRows.allSatisfy(\.isEmpty)
                        ? localized("all rows right")
                        : localized(
                            format: "wrong or missing icon on rows %@",
                            (wrongRows.first { !$0.isEmpty } ?? []).map { String($0 + 1) }.joined(separator: ", ")),
                hint: 3),
            CheckResult(
                name: "icons set on the main thread",
                passed: setCalls > 0 && offMain == 0,
                expected: localized("every setIcon call on the main actor, on the main thread"),
                got: setCalls == 0
                    ? localized("no icon was set")
                    : localized(
                        format: "%1$d of %2$@ off the main thread", offMain,
                        localized(count: setCalls, "%d call", "%d calls")),
                hint: 3),
            CheckResult(
                name: "the same rows as the serial loader",
                passed: allFinished && runs.allSatisfy { $0.icons == serialIcons },
                expected: localized(
                    "the rows the loader as shipped shows: the broken icon's row (6) empty, the others set"),
                got: runs.allSatisfy { $0.icons == serialIcons }
                    ? localized("the same rows")
                    : localized(
                        format: "%1$d icons set, %2$d wanted",
                        runs.first { $0.icons != serialIcons }?.icons.filter { $0 != nil }.count ?? 0,
                        serialIcons.filter { $0 != nil }.count), hint: 4),
        ]
    }
}

/// A flag that main-actor tasks set and the main loop reads (both on the main actor, so no lock).
@MainActor
final class MainActorFlag {
    var isSet = false
}
