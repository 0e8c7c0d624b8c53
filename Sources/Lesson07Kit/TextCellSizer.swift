/// The lesson's sizing cell for a timeline row, for code outside the lesson (an exercise's
/// checks measure with the very cell the lesson's three variants use, so "the exact height"
/// means the same thing everywhere).
///
/// Not `Sendable`, like the cell it wraps: its views change with every row it measures, so it
/// belongs to one thread, queue or task at a time. Make one per queue or task.
public final class TextCellSizer {
    private let cell: SizingCell

    /// A cell `width` cells wide (its label is 4 narrower), each line of text 20 points tall.
    public init(width: Double) {
        cell = SizingCell.textCell(width: width)
    }

    /// The cell's height with `text` in its label, after layout.
    public func height(forText text: String) throws -> Double {
        try cell.height(forText: text)
    }
}
