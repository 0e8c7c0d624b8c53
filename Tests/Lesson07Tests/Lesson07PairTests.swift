import XCTest
@testable import lesson07
import WorkshopCore

/// The same row heights (8,000 for the timing pair) measured both ways. XCTest, because these runs need the real
/// main thread and its run loop (see linux-facts.md); every run is bounded by a timeout.
final class Lesson07PairTests: XCTestCase {
    private func run(_ variant: Variant, rows: Int = 8000) -> HeightsRun {
        var settings = HeightsRun.Settings()
        settings.rows = rows
        settings.width = 40
        settings.chunkSize = 250
        settings.timeoutSeconds = 120
        return HeightsRun.perform(variant, settings: settings)
    }

    func testBothVariantsMeasureTheSameHeights() throws {
        let plain = run(.noThread, rows: 500)
        let queued = run(.threaded, rows: 500)
        XCTAssertNil(plain.failure)
        XCTAssertNil(queued.failure)
        XCTAssertEqual(plain.heights.count, 500)
        XCTAssertEqual(plain.heights, queued.heights)
        // And they are the sizing cell's heights: its lines at 36 cells, 20 points each, plus 20.
        let texts = HeightsRun.texts(count: 500)
        for row in [0, 1, 77, 499] {
            let lines = TextWrapping.wrap(texts[row], width: 36, mode: .word).count
            XCTAssertEqual(plain.heights[row], Double(lines * 20 + 20), "row \(row)")
        }
        XCTAssertGreaterThan(Set(plain.heights.compactMap { $0 }).count, 1, "the rows have different heights")
    }

    func testThreadedKeepsTheMainThreadFree() {
        let plain = run(.noThread)
        // Other processes on a shared 2-core machine can take the core from the main thread
        // for a moment, which only ever *adds* to a stall. So the threaded run gets up to three
        // tries and the smallest stall counts; the no-thread stall is the whole measuring time
        // every time. (The main thread's own work per chunk is a cache store and a reload.)
        var attempts: [HeightsRun] = []
        repeat {
            attempts.append(run(.threaded))
        } while attempts.count < 3 && attempts.last!.screen.maxStallSeconds >= 0.1 * plain.screen.maxStallSeconds
        let queued = attempts.min { $0.screen.maxStallSeconds < $1.screen.maxStallSeconds }!
        XCTAssertEqual(plain.heights, queued.heights)
        XCTAssertLessThan(queued.screen.maxStallSeconds, 0.1 * plain.screen.maxStallSeconds,
                          "threaded stalls \(attempts.map(\.screen.maxStallSeconds)) s vs no-thread \(plain.screen.maxStallSeconds) s")
        // The threaded table is on screen (with estimates) long before the no-thread one.
        XCTAssertLessThan(queued.screen.firstRowsSeconds ?? .infinity, 0.1 * (plain.screen.firstRowsSeconds ?? 0))
        XCTAssertGreaterThan(queued.metric("estimatedHeightsUsed"), 0, "the threaded table drew estimates first")
        XCTAssertEqual(plain.metric("estimatedHeightsUsed"), 0, "the no-thread table never needed one")
        XCTAssertGreaterThanOrEqual(plain.metric("cacheHits"), 8000, "every row's height came from the cache at reload")
    }
}

extension HeightsRun {
    func metric(_ name: String) -> Int {
        if case .count(let n)? = metrics.first(where: { $0.0 == name })?.1 { return n }
        return -1
    }
}
