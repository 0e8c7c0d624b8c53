import ArgumentParser
import Foundation
import Testing
import WorkshopCore

/// A flag's range declared once (`FlagRange`): the help's suffix, the usage error in English and
/// Japanese, and what the lesson contract lists. The contract suite checks each program prints
/// these texts; their wording is checked here, once.
@Suite("FlagRange")
struct FlagRangeTests {
    let items = FlagRange("--items", 1...100)
    let latency = FlagRange("--slow-latency", 0...30.0, seconds: true)
    let bandwidth = FlagRange("--bandwidth", 0...)

    @Test("the usage error names the flag, the range and the value, in English and in Japanese")
    func refusal() {
        #expect(items.refusal(0, in: .en) == "--items must be between 1 and 100 (got 0)")
        #expect(items.refusal(0, in: .ja) == "--items は 1 から 100 の間で指定してください(指定値: 0)")
        #expect(latency.refusal(31, in: .en) == "--slow-latency must be between 0 and 30 seconds (got 31)")
        #expect(latency.refusal(31.5, in: .ja) == "--slow-latency は 0 から 30 秒の間で指定してください(指定値: 31.5)")
        #expect(bandwidth.refusal(-5, in: .en) == "--bandwidth must be 0 or more (got -5)")
        #expect(bandwidth.refusal(-5, in: .ja) == "--bandwidth は 0 以上で指定してください(指定値: -5)")
        #expect(
            FlagRange("--max-age", 0..., seconds: true).refusal(-1, in: .ja) == "--max-age は 0 秒以上で指定してください(指定値: -1)")
    }

    @Test("check refuses a value outside the range with a ValidationError, and passes nil and the bounds")
    func check() throws {
        #expect(throws: ValidationError.self) { try items.check(101) }
        #expect(throws: ValidationError.self) { try bandwidth.check(-1) }
        try items.check(1)
        try items.check(100)
        try items.check(nil)
        try bandwidth.check(Int.max)
        try latency.check(0)
    }

    @Test("the range as --help shows it")
    func rangeText() {
        #expect(items.rangeText(in: .en) == "1-100")
        #expect(items.rangeText(in: .ja) == "1〜100")
        #expect(bandwidth.rangeText(in: .en) == "0 or more")
        #expect(bandwidth.rangeText(in: .ja) == "0 以上")
        #expect(FlagRange("--timeout", 0.1...300.0).rangeText(in: .en) == "0.1-300")
    }

    @Test("the contract lists a value just below and one just above, and the range read back gives the same texts")
    func contract() throws {
        #expect(items.contract.refused == ["0", "101"])
        #expect(latency.contract.refused == ["-1", "31"])
        #expect(bandwidth.contract.refused == ["-1"])
        let range = try #require(items.contract.range)
        let read = try #require(FlagRange<Double>("--items", range))
        #expect(read.refusal(0, in: .ja) == items.refusal(0, in: .ja))
        #expect(read.rangeText(in: .en) == items.rangeText(in: .en))
    }
}
