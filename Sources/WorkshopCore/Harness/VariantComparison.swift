import Foundation

/// How a takeaway (and a test) says that one variant did as well as another: one rule for
/// every lesson, so "as free as the queue" means the same thing in lesson 01 and lesson 07.
///
/// The margins are wide on purpose. Two runs of the same code on a laptop differ by a few
/// frames of scheduling; the lessons compare ways of working that differ by whole seconds.
public enum VariantComparison {
    /// "As free as": a worst freeze at most twice the other's, or at most 50 ms (three frames,
    /// well under the 100 ms a person notices) whatever the other's was.
    public static func isAsFree(_ freeze: Double, as other: Double) -> Bool {
        freeze <= freezeAllowed(against: other)
    }

    /// The longest worst freeze that still counts as free as `other`.
    public static func freezeAllowed(against other: Double) -> Double { max(2 * other, 0.05) }

    /// "As fast as": a total at most 1.2 times the other's, plus 0.1 s for the start-up both pay.
    public static func isAsFast(_ total: Double, as other: Double) -> Bool {
        total <= totalAllowed(against: other)
    }

    /// The longest total that still counts as fast as `other`.
    public static func totalAllowed(against other: Double) -> Double { 1.2 * other + 0.1 }

    /// Both at once: what the lessons' pair tests retry a busy machine's run on.
    public static func isAsFreeAndAsFast<D>(_ run: VariantRun<D>, as other: VariantRun<D>) -> Bool {
        isAsFree(run.screen.maxStallSeconds, as: other.screen.maxStallSeconds)
            && isAsFast(run.seconds(.totalSeconds) ?? .infinity, as: other.seconds(.totalSeconds) ?? 0)
    }

    /// The run's verdict against another: ", as free and as fast as the queue" or what differed.
    public static func verdict<D>(_ run: VariantRun<D>, against other: VariantRun<D>, otherName: String) -> String {
        let (freeze, otherFreeze) = (run.screen.maxStallSeconds, other.screen.maxStallSeconds)
        let (total, otherTotal) = (run.seconds(.totalSeconds) ?? 0, other.seconds(.totalSeconds) ?? 0)
        let freezes = localized(format: "worst freeze %.3f s vs %.3f s", freeze, otherFreeze)
        let totals = localized(format: "total %.2f s vs %.2f s", total, otherTotal)
        switch (isAsFree(freeze, as: otherFreeze), isAsFast(total, as: otherTotal)) {
        case (true, true): return localized(format: "as free and as fast as %@", otherName)
        case (true, false): return localized(format: "as free as %1$@ but slower (%2$@)", otherName, totals)
        case (false, true):
            return localized(format: "as fast as %1$@ but with a longer freeze (%2$@)", otherName, freezes)
        case (false, false):
            return localized(
                format: "less free and slower than %1$@ this time (%2$@, %3$@)", otherName, freezes, totals)
        }
    }
}

extension Sequence {
    /// The run of one variant, when it ran (runs are named after their variant).
    public func run<D>(_ variant: Variant) -> VariantRun<D>? where Element == VariantRun<D> {
        first { $0.name == variant.rawValue }
    }
}
