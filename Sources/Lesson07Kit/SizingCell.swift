/// The second article's trick: to know a row's height before the table draws it, fill an
/// off-screen *sizing cell* with the row's content, lay it out, and read the height.
/// One sizing cell is made once and reused for every row (the author's
/// `tmpCalculatHeightCell`; dequeuing a real cell there crashed).
///
/// The cell's views follow the article: a base view as wide as the content view, and in
/// it the content, 10 points below the base's top and 10 above its bottom. The cell's
/// height is the base view's height after layout.
final class SizingCell {
    let contentView = View("contentView")
    let baseView = View("baseView")
    let content: View
    private var constraints: [Constraint]
    private let width: Double
    /// What the last layout left open (the content view's height, as in the article).
    private(set) var openings: [Opening] = []

    /// The article's cell: a square of side `side`, centred (`.width(0).height(0)` whose
    /// constants `setHeight` changes).
    static func articleCell(width: Double = 320) -> SizingCell {
        SizingCell(
            content: View("resizableView"), width: width,
            extra: { content, base in
                [
                    Constraint(content, .width, equalTo: nil, constant: 0),
                    Constraint(content, .height, equalTo: nil, constant: 0),
                    Constraint(content, .centerX, equalTo: base),
                ]
            })
    }

    /// A timeline cell: a word-wrapping label, 2 cells in from each side, each line
    /// `lineHeight` points tall.
    static func textCell(width: Double, lineHeight: Double = 20) -> SizingCell {
        SizingCell(
            content: .label("textLabel", text: "", mode: .word, lineHeight: lineHeight), width: width,
            extra: { content, base in
                [
                    Constraint(content, .left, equalTo: base, constant: 2),
                    Constraint(content, .right, equalTo: base, constant: -2),
                ]
            })
    }

    private init(content: View, width: Double, extra: (View, View) -> [Constraint]) {
        self.content = content
        self.width = width
        contentView.addSubview(baseView)
        baseView.addSubview(content)
        constraints =
            [
                // The base view's top and left sit on the content view's (the article left them
                // to UIKit's defaults; our solver would rightly call them ambiguous).
                Constraint(baseView, .top, equalTo: contentView),
                Constraint(baseView, .left, equalTo: contentView),
                Constraint(baseView, .width, equalTo: contentView),
                // .top(10).fromSuperviewTop() and .bottom(10).fromSuperviewBottom()
                Constraint(content, .top, equalTo: baseView, constant: 10),
                Constraint(baseView, .bottom, equalTo: content, .bottom, constant: 10),
            ] + extra(content, baseView)
    }

    /// The article's `heightForRowAtIndexPath` for row `row` (0-based): content of
    /// (row + 1) x 5 points, so the cell is (row + 1) x 5 + 20.
    func height(forArticleRow row: Int) throws -> Double {
        let side = Double(row + 1) * 5
        // setHeight: change the constants of the width and height constraints, lay out again.
        for index in constraints.indices where constraints[index].first === content && constraints[index].second == nil
        {
            constraints[index].constant = side
        }
        return try layOut()
    }

    /// The height of a timeline cell showing `text`.
    func height(forText text: String) throws -> Double {
        content.text = text
        return try layOut()
    }

    /// Lays the cell out and reads the base view's height (`totalCellHeight` in the article).
    private func layOut() throws -> Double {
        // The content view's height is left open: it is what we are measuring.
        openings = try Layout(root: contentView, constraints: constraints, rootWidth: width, rootHeight: nil).solve()
        return baseView.frame.height
    }
}
