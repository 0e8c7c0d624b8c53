/// The first article: a word-wrapping label in a scroll view that fills the window.
///
/// Pinned Top, Left, Right, Bottom to the scroll view, the label does not wrap: inside a
/// scroll view, Left and Right are the edges of the *content*, whose size is what we are
/// solving for, so nothing fixes the label's width and it takes its one-line width.
/// Pinned Top, Left, Width, Bottom, the width comes from the scroll view's frame, the text
/// wraps, and the content is as tall as the lines.
struct ScrollViewDemo {
    enum Pinning: String, CaseIterable {
        case leftRight = "Top, Left, Right, Bottom"
        case width = "Top, Left, Width, Bottom"
    }

    /// The article's demo text (a poem from the Hyakunin Isshu).
    static let poem = "秋の田の かりほの庵の 苫をあらみ 我が衣手は 露にぬれつつ"

    let window = View("window")
    let scroll = View("scrollView", kind: .scroll)
    let label: View
    let layout: Layout

    init(pinning: Pinning, columns: Int, rows: Int = 8, text: String = Self.poem, mode: WrapMode = .word) {
        label = .label("label", text: text, mode: mode)
        window.addSubview(scroll)
        scroll.addSubview(label)
        // The scroll view fills the window, one cell in from its border (swift-layout:
        // .top(1).fromSuperviewTop().leftIsSameSuperview(1).widthIsSameSuperview(-2)...).
        var constraints = [
            Constraint(scroll, .top, equalTo: window, constant: 1),
            Constraint(scroll, .left, equalTo: window, constant: 1),
            Constraint(scroll, .width, equalTo: window, constant: -2),
            Constraint(scroll, .bottom, equalTo: window, constant: -1),
            Constraint(label, .top, equalTo: scroll),
            Constraint(label, .left, equalTo: scroll),
            Constraint(label, .bottom, equalTo: scroll),
        ]
        switch pinning {
        case .leftRight: constraints.append(Constraint(label, .right, equalTo: scroll))
        case .width: constraints.append(Constraint(label, .width, equalTo: scroll))
        }
        layout = Layout(root: window, constraints: constraints, rootWidth: Double(columns), rootHeight: Double(rows))
    }

    /// The window as the terminal shows it: its border, the scroll view's visible window
    /// onto the label (scrolled to the top left), and a caption saying what scrolls.
    func draw() -> [String] {
        var canvas = Canvas(columns: Int(window.frame.width), rows: Int(window.frame.height))
        let visible = scroll.frame
        var scrolls: [String] = []
        if scroll.contentSize.width > visible.width {
            scrolls.append(localized("→ %@ wide", format(scroll.contentSize.width)))
        }
        if scroll.contentSize.height > visible.height {
            scrolls.append(localized("↓ %@ tall", format(scroll.contentSize.height)))
        }
        canvas.box(
            window.frame, caption: scrolls.isEmpty ? "" : localized("scrolls %@", scrolls.joined(separator: ", ")))
        for (row, line) in label.lines.enumerated() {
            canvas.write(
                line, column: Int(visible.minX + label.frame.minX), row: Int(visible.minY + label.frame.minY) + row,
                clip: visible)
        }
        return canvas.lines
    }
}
