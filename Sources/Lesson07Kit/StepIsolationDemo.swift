import WorkshopCore

/// The trap of Approachable Concurrency, measured (`--variant async --step-isolation
/// nonsending|concurrent`): the async variant's job done one chunk after another, each chunk
/// measured by an async function that the main actor awaits directly, with no task group in
/// between. The two functions below have the same body; only their isolation differs, and the
/// Screen freezes in one and not in the other:
///
/// - `nonisolated(nonsending)`: runs on its caller's actor, here the main actor, so every chunk
///   is measured on the main thread and the Screen stops for each. It is what a plain
///   `nonisolated` async function means once the upcoming feature `NonisolatedNonsendingByDefault`
///   (SE-0461) is on: in this package (Package.swift), and in the app projects Xcode 26 creates
///   (its "Approachable Concurrency" setting). Swift 6.2 and 6.3 leave it off otherwise;
/// - `@concurrent`: runs on the task pool whoever calls it; main only awaits, and draws.
///
/// Both are spelled out, so the demo means the same with the setting on or off. (With the
/// setting off, as in plain Swift 6, an unmarked `nonisolated` async function behaves like the
/// `@concurrent` one: a program that relied on that moves to main when the setting is turned on.)
public enum StepIsolation: String, CaseIterable, Sendable {
    case nonsending
    case concurrent
}

extension AsyncHeights {
    /// Called on the main thread; returns at once. The task measures the chunks in order and
    /// hands each one to the Screen; a cancelled run measures and shows no further chunk.
    static func startStepByStep(
        _ controller: RowHeightsController, cellWidth: Double, chunks: [Range<Int>], isolation: StepIsolation
    ) {
        let texts = controller.texts
        let trace = controller.trace
        controller.startTask {
            do {
                for rows in chunks {
                    try Task.checkCancellation()  // before each chunk: a cancelled run measures no more
                    let heights: [Double]
                    switch isolation {
                    case .nonsending:
                        heights = try await measureOnCallersActor(
                            rows, texts: texts, cellWidth: cellWidth, trace: trace)
                    case .concurrent:
                        heights = try await measureConcurrently(rows, texts: texts, cellWidth: cellWidth, trace: trace)
                    }
                    guard !Task.isCancelled else { return }  // measured just before a cancel: not shown
                    controller.deliver(heights, from: rows.lowerBound)
                }
            } catch is CancellationError {
                return
            } catch {
                controller.fail("\(error)")
            }
        }
    }

    /// Runs on its caller's actor: awaited from the main actor, it measures on the main thread.
    nonisolated(nonsending) static func measureOnCallersActor(
        _ rows: Range<Int>, texts: [String], cellWidth: Double, trace: Trace
    ) async throws -> [Double] {
        try measure(rows, texts: texts, cellWidth: cellWidth, trace: trace)
    }

    /// Leaves its caller's actor: runs on the task pool, whoever awaits it.
    @concurrent
    static func measureConcurrently(
        _ rows: Range<Int>, texts: [String], cellWidth: Double, trace: Trace
    ) async throws -> [Double] {
        try measure(rows, texts: texts, cellWidth: cellWidth, trace: trace)
    }

    /// The chunk's work, the same for both, with a sizing cell of its own. Recorded as meant for
    /// the task pool: the timeline draws it on "main" when it ran there (`Trace.measure`).
    nonisolated static func measure(_ rows: Range<Int>, texts: [String], cellWidth: Double, trace: Trace) throws
        -> [Double]
    {
        let cell = SizingCell.textCell(width: cellWidth)
        return try trace.measure("measure rows \(rows.lowerBound + 1)-\(rows.upperBound)", lane: "task pool") {
            try rows.map { try cell.height(forText: texts[$0]) }
        }
    }
}
