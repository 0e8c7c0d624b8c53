import Testing
import WorkshopCore

/// The takeaway's verdict follows the figures, on made-up ones: "as free" only within the stated
/// tolerance (a factor of two, or both under 50 ms), "freer" when under half a freeze that could
/// be seen, and the same turned round for the totals (1.2 times plus 0.1 s).
struct VariantComparisonTests {
    static func verdict(_ freeze: Double, _ otherFreeze: Double, _ total: Double, _ otherTotal: Double) -> String {
        VariantComparison.verdict(
            freeze: freeze, against: otherFreeze, total: total, against: otherTotal, otherName: "the queue", in: .en)
    }

    /// Lesson 07's capture: the task group froze 0.116 s against the queue's 2.148 s and was done
    /// after 4.46 s against 6.95 s. It said "as free and as fast as the queue".
    @Test func aMuchFreerAndFasterRunIsCalledSo() {
        #expect(
            Self.verdict(0.116, 2.148, 4.46, 6.95)
                == "freer and faster than the queue (worst freeze 0.116 s vs 2.148 s, total 4.46 s vs 6.95 s)")
    }

    @Test func withinTheToleranceTheyAreAsFreeAndAsFast() {
        #expect(Self.verdict(0.030, 0.040, 1.00, 1.00) == "as free and as fast as the queue")
        // Twice the other's freeze, a total under 1.2 times plus 0.1 s the other's: still "as".
        #expect(Self.verdict(0.200, 0.100, 1.25, 1.00) == "as free and as fast as the queue")
        #expect(Self.verdict(0.100, 0.200, 1.00, 1.25) == "as free and as fast as the queue")
        // Both freezes under 50 ms: no one sees the difference, whatever the ratio.
        #expect(Self.verdict(0.010, 0.049, 1.00, 1.00) == "as free and as fast as the queue")
    }

    @Test func eachOtherPairOfVerdictsSaysWhatDiffered() {
        let (freezes, totals) = ("worst freeze 0.100 s vs 0.500 s", "total 1.00 s vs 2.00 s")
        #expect(
            Self.verdict(0.100, 0.500, 1.00, 1.00)
                == "freer than the queue (worst freeze 0.100 s vs 0.500 s) and as fast")
        #expect(
            Self.verdict(0.100, 0.500, 2.00, 1.00)
                == "freer than the queue (worst freeze 0.100 s vs 0.500 s) but slower (total 2.00 s vs 1.00 s)")
        #expect(Self.verdict(0.100, 0.120, 1.00, 2.00) == "as free as the queue and faster (\(totals))")
        #expect(Self.verdict(0.100, 0.120, 2.00, 1.00) == "as free as the queue but slower (total 2.00 s vs 1.00 s)")
        #expect(
            Self.verdict(0.500, 0.100, 1.00, 2.00)
                == "faster than the queue (\(totals)) but with a longer freeze (worst freeze 0.500 s vs 0.100 s)")
        #expect(
            Self.verdict(0.500, 0.100, 1.00, 1.00)
                == "as fast as the queue but with a longer freeze (worst freeze 0.500 s vs 0.100 s)")
        #expect(
            Self.verdict(0.500, 0.100, 2.00, 1.00)
                == "less free and slower than the queue this time (worst freeze 0.500 s vs 0.100 s, total 2.00 s vs 1.00 s)"
        )
        #expect(Self.verdict(0.100, 0.500, 1.00, 2.00) == "freer and faster than the queue (\(freezes), \(totals))")
    }

    /// Freer and as free never both hold, nor faster and as fast turned round.
    @Test func theRulesDoNotOverlap() {
        for freeze in [0.0, 0.01, 0.04, 0.05, 0.1, 0.3, 1, 3] {
            for other in [0.0, 0.01, 0.04, 0.05, 0.1, 0.3, 1, 3] {
                #expect(
                    VariantComparison.isFreer(freeze, than: other) == !VariantComparison.isAsFree(other, as: freeze))
                if VariantComparison.isFreer(freeze, than: other) {
                    #expect(!VariantComparison.isFreer(other, than: freeze))
                }
                if VariantComparison.isFaster(freeze, than: other) {
                    #expect(!VariantComparison.isFaster(other, than: freeze))
                }
            }
        }
    }

    /// Each phrase reads in Japanese too, with every figure in its place.
    @Test func japaneseHasEveryPhraseWithItsFigures() {
        let cases: [(Double, Double, Double, Double)] = [
            (0.1, 0.5, 1, 2), (0.1, 0.5, 1, 1), (0.1, 0.5, 2, 1), (0.1, 0.12, 1, 2), (0.1, 0.12, 1, 1),
            (0.1, 0.12, 2, 1), (0.5, 0.1, 1, 2), (0.5, 0.1, 1, 1), (0.5, 0.1, 2, 1),
        ]
        var seen: Set<String> = []
        for (freeze, otherFreeze, total, otherTotal) in cases {
            let english = VariantComparison.verdict(
                freeze: freeze, against: otherFreeze, total: total, against: otherTotal, otherName: "Q", in: .en)
            let japanese = VariantComparison.verdict(
                freeze: freeze, against: otherFreeze, total: total, against: otherTotal, otherName: "Q", in: .ja)
            seen.insert(english)
            #expect(japanese.hasPrefix("Q") || japanese.hasPrefix("今回はQ"), "\(japanese)")
            #expect(japanese != english)
            for figure in english.matches(of: /[0-9]+\.[0-9]+/).map({ String($0.output) }) {
                #expect(japanese.contains(figure), "\(japanese) says \(figure), as \(english) does")
            }
        }
        #expect(seen.count == VariantComparison.verdictPhrases.count, "every phrase was picked once")
    }
}
