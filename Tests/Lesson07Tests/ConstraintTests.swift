import Testing

@testable import Lesson07Kit

@Suite struct ConstraintTests {
    @Test func leftAndRightPinningIsAmbiguousAndDoesNotWrap() throws {
        let demo = ScrollViewDemo(pinning: .leftRight, columns: 40)
        let openings = try demo.layout.solve()
        let width = try #require(openings.first { $0.view == "label" && $0.axis == .horizontal })
        #expect(width.settledBy == .intrinsicWidth)
        #expect(width.quantity == "width")
        #expect("\(width)".contains("label.width (horizontal)"))
        #expect(demo.label.frame.width == 56)
        #expect(demo.label.lines == [ScrollViewDemo.poem])
        // The content is as wide as the line: wider than the scroll view, so it scrolls sideways.
        #expect(demo.scroll.frame.width == 38)
        #expect(demo.scroll.contentSize == Size(width: 56, height: 1))
        #expect(demo.draw().last?.contains("scrolls → 56 wide") == true)
    }

    @Test func widthPinningWrapsAndSetsTheContentHeight() throws {
        let demo = ScrollViewDemo(pinning: .width, columns: 24)
        let openings = try demo.layout.solve()
        #expect(!openings.contains { $0.view == "label" && $0.axis == .horizontal })
        #expect(!openings.contains { $0.settledBy == .zero }, "nothing is ambiguous: \(openings)")
        #expect(demo.scroll.frame == Rect(x: 1, y: 1, width: 22, height: 6))
        #expect(demo.label.frame.width == 22)
        #expect(demo.label.lines == ["秋の田の かりほの庵の", "苫をあらみ 我が衣手は", "露にぬれつつ"])
        #expect(demo.scroll.contentSize == Size(width: 22, height: 3))
        // Narrower window, more lines, taller content.
        let narrow = ScrollViewDemo(pinning: .width, columns: 12)
        try narrow.layout.solve()
        #expect(narrow.label.lines.count == 7)
        #expect(narrow.scroll.contentSize.height == 7)
        #expect(narrow.scroll.frame.height == 6, "taller than the scroll view: it scrolls down")
    }

    @Test func contradictionNamesTheConstraintsAndDoesNotCrash() throws {
        let demo = ScrollViewDemo(pinning: .width, columns: 40)
        var layout = demo.layout
        layout.constraints.append(Constraint(demo.label, .width, equalTo: nil, constant: 10))
        #expect(
            throws: LayoutError.contradiction(
                axis: .horizontal,
                constraints: [
                    "scrollView.width == window.width - 2", "label.width == scrollView.width", "label.width == 10",
                    "window.width == 40",
                ])
        ) { try layout.solve() }
        // Constraints that play no part in the contradiction are not named.
        do {
            try layout.solve()
        } catch {
            #expect(!"\(error)".contains("label.top"))
            #expect("\(error)".contains("contradict"))
        }
    }

    @Test func aViewNothingPinsIsReportedByNameAndAxis() throws {
        let window = View("window")
        let floating = View("floating")
        window.addSubview(floating)
        let layout = Layout(
            root: window,
            constraints: [
                Constraint(floating, .left, equalTo: window, constant: 3),
                Constraint(floating, .top, equalTo: window),
                Constraint(floating, .height, equalTo: nil, constant: 2),
            ], rootWidth: 30, rootHeight: 10)
        let openings = try layout.solve()
        #expect(
            openings == [Opening(view: "floating", axis: .horizontal, quantity: "width", settledBy: .zero, value: 0)])
        #expect(floating.frame == Rect(x: 3, y: 0, width: 0, height: 2))
    }

    @Test func multipliersCentresAndSiblingsSolve() throws {
        let window = View("window")
        let a = View("a")
        let b = View("b")
        window.addSubview(a)
        window.addSubview(b)
        let openings = try Layout(
            root: window,
            constraints: [
                Constraint(a, .width, equalTo: window, multiplier: 0.5),  // half the window
                Constraint(a, .centerX, equalTo: window),  // centred
                Constraint(a, .top, equalTo: window, constant: 1),
                Constraint(a, .height, equalTo: a, .height, multiplier: 1),  // a tautology: adds nothing
                Constraint(a, .height, equalTo: nil, constant: 4),
                Constraint(b, .top, equalTo: a, .bottom, constant: 2),  // below a
                Constraint(b, .left, equalTo: a, .left),
                Constraint(b, .right, equalTo: window, .right, constant: -1),
                Constraint(window, .bottom, equalTo: b, .bottom, constant: 3),  // the window hugs b
            ], rootWidth: 40, rootHeight: nil
        ).solve()
        #expect(a.frame == Rect(x: 10, y: 1, width: 20, height: 4))
        #expect(b.frame == Rect(x: 10, y: 7, width: 29, height: 0))
        #expect(window.frame.height == 10, "the window's open height follows b")
        #expect(openings == [Opening(view: "b", axis: .vertical, quantity: "height", settledBy: .zero, value: 0)])
    }

    @Test func badConstraintsAreErrorsNotCrashes() {
        let window = View("window")
        let a = View("a")
        let b = View("b")
        let inner = View("inner")
        window.addSubview(a)
        window.addSubview(b)
        b.addSubview(inner)
        let cases: [(Constraint, LayoutError)] = [
            (Constraint(a, .width, equalTo: b, .top), .mixedAxes("a.width == b.top")),
            (Constraint(a, .left, equalTo: nil, constant: 3), .edgeWithoutSecondView("a.left == 3")),
            (Constraint(a, .left, equalTo: inner), .unrelatedViews("a.left == inner.left")),
            (Constraint(a, .left, equalTo: View("stray")), .notInTree("a.left == stray.left", root: "window")),
            (
                Constraint(View("stray"), .width, equalTo: nil, constant: 1),
                .notInTree("stray.width == 1", root: "window")
            ),
        ]
        for (constraint, error) in cases {
            #expect(throws: error) {
                try Layout(root: window, constraints: [constraint], rootWidth: 10, rootHeight: 10).solve()
            }
        }
    }
}
