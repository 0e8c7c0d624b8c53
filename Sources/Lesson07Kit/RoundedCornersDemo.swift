/// The third article: round some corners of a view laid out by constraints. The outline
/// is taken from the view's frame, so asking before layout gives nothing.
struct RoundedCornersDemo {
    let window = View("window")
    let boxes: [(view: View, corners: Corners, name: String)]
    let layout: Layout

    /// The article's five boxes side by side: its four one-sided cases (`roundRectTop`,
    /// `roundRectRight`, `roundRectLeft`, `roundRectBottom`) and two opposite corners
    /// (`UIRectCorner.TopLeft | UIRectCorner.BottomRight`).
    init(radius: Double = 2) {
        let wanted: [(Corners, String)] = [
            (.top, "top"), (.right, "right"), (.left, "left"), (.bottom, "bottom"),
            ([.topLeft, .bottomRight], "diagonal"),
        ]
        var constraints: [Constraint] = []
        var made: [(View, Corners, String)] = []
        var previous: View?
        for (corners, name) in wanted {
            let view = View(name)
            window.addSubview(view)
            constraints += [
                Constraint(view, .top, equalTo: window, constant: 0),
                Constraint(view, .width, equalTo: nil, constant: 12),
                Constraint(view, .height, equalTo: nil, constant: 5),
            ]
            if let previous {
                // .left(2).fromRight(previous)
                constraints.append(Constraint(view, .left, equalTo: previous, .right, constant: 2))
            } else {
                constraints.append(Constraint(view, .left, equalTo: window, constant: 0))
            }
            made.append((view, corners, name))
            previous = view
        }
        boxes = made
        self.layout = Layout(root: window, constraints: constraints, rootWidth: 68, rootHeight: 5)
        self.radius = radius
    }

    let radius: Double

    func outlines() -> [RoundedOutline] {
        boxes.map { RoundedOutline(rect: $0.view.frame, corners: $0.corners, radius: radius) }
    }

    /// The boxes drawn where layout put them.
    func draw() -> [String] {
        var canvas = Canvas(columns: Int(window.frame.width), rows: Int(window.frame.height))
        for (box, outline) in zip(boxes, outlines()) {
            for (row, line) in outline.terminalBox(label: box.name).enumerated() {
                canvas.write(line, column: Int(outline.rect.minX), row: Int(outline.rect.minY) + row)
            }
        }
        return canvas.lines
    }
}
