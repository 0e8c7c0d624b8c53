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

    /// Freer than `other`, by the same rule turned round: the other's worst freeze is not as
    /// free as this one's (more than twice it, and more than 50 ms). So a freeze counts as freer
    /// only when it is under half the other's and the other's could be seen; between the two,
    /// within a factor of two or both under 50 ms, the two are as free.
    public static func isFreer(_ freeze: Double, than other: Double) -> Bool { !isAsFree(other, as: freeze) }

    /// Faster than `other`, by the same rule turned round: the other's total is more than 1.2
    /// times this one's plus 0.1 s.
    public static func isFaster(_ total: Double, than other: Double) -> Bool { !isAsFast(other, as: total) }

    /// The run's verdict against another: "as free and as fast as the queue", or how it differed,
    /// with the figures that differed ("freer and faster than the queue (worst freeze 0.116 s vs
    /// 2.148 s, total 4.46 s vs 6.95 s)").
    public static func verdict<D>(_ run: VariantRun<D>, against other: VariantRun<D>, otherName: String) -> String {
        verdict(
            freeze: run.screen.maxStallSeconds, against: other.screen.maxStallSeconds,
            total: run.seconds(.totalSeconds) ?? 0, against: other.seconds(.totalSeconds) ?? 0, otherName: otherName)
    }

    /// The verdict on the figures alone, in `language` (the program's unless told).
    public static func verdict(
        freeze: Double, against otherFreeze: Double, total: Double, against otherTotal: Double, otherName: String,
        in language: Language = Localized.language
    ) -> String {
        func text(_ english: String, _ arguments: any CVarArg...) -> String {
            String(format: localized(english, in: language), locale: nil, arguments: arguments)
        }
        let freezes = text("worst freeze %.3f s vs %.3f s", freeze, otherFreeze)
        let totals = text("total %.2f s vs %.2f s", total, otherTotal)
        let free: Comparison =
            isFreer(freeze, than: otherFreeze) ? .better : isAsFree(freeze, as: otherFreeze) ? .same : .worse
        let fast: Comparison =
            isFaster(total, than: otherTotal) ? .better : isAsFast(total, as: otherTotal) ? .same : .worse
        switch (free, fast) {
        case (.better, .better): return text("freer and faster than %1$@ (%2$@, %3$@)", otherName, freezes, totals)
        case (.better, .same): return text("freer than %1$@ (%2$@) and as fast", otherName, freezes)
        case (.better, .worse): return text("freer than %1$@ (%2$@) but slower (%3$@)", otherName, freezes, totals)
        case (.same, .better): return text("as free as %1$@ and faster (%2$@)", otherName, totals)
        case (.same, .same): return text("as free and as fast as %@", otherName)
        case (.same, .worse): return text("as free as %1$@ but slower (%2$@)", otherName, totals)
        case (.worse, .better):
            return text("faster than %1$@ (%2$@) but with a longer freeze (%3$@)", otherName, totals, freezes)
        case (.worse, .same): return text("as fast as %1$@ but with a longer freeze (%2$@)", otherName, freezes)
        case (.worse, .worse):
            return text("less free and slower than %1$@ this time (%2$@, %3$@)", otherName, freezes, totals)
        }
    }

    /// Every phrase `verdict` may pick, as the code's English keys: one group of alternatives
    /// for whoever compares two runs' texts (the captures).
    public static let verdictPhrases = [
        "as free and as fast as %@",
        "freer and faster than %1$@ (%2$@, %3$@)",
        "freer than %1$@ (%2$@) and as fast",
        "freer than %1$@ (%2$@) but slower (%3$@)",
        "as free as %1$@ and faster (%2$@)",
        "as free as %1$@ but slower (%2$@)",
        "faster than %1$@ (%2$@) but with a longer freeze (%3$@)",
        "as fast as %1$@ but with a longer freeze (%2$@)",
        "less free and slower than %1$@ this time (%2$@, %3$@)",
    ]

    /// How one run compared with another on one figure.
    enum Comparison { case better, same, worse }
}

extension Sequence {
    /// The run of one variant, when it ran (runs are named after their variant).
    public func run<D>(_ variant: Variant) -> VariantRun<D>? where Element == VariantRun<D> {
        first { $0.name == variant.rawValue }
    }
}
