/// What the constraints left open on one axis of one view, and how layout settled it.
struct Opening: Equatable, CustomStringConvertible {
    enum Settlement: Equatable {
        /// A label's one-line width: the text will not wrap (the first article's bug).
        case intrinsicWidth
        /// A label's height for its lines at the width it got.
        case intrinsicHeight
        /// A scroll view's content, as large as its children reach.
        case childrenExtent
        /// Nothing says: truly ambiguous. UIKit would pick some value; we pick 0.
        case zero
    }

    var view: String
    var axis: Axis
    /// "width", "height", "left", "top", "content width", "content height".
    var quantity: String
    var settledBy: Settlement
    var value: Double

    var description: String {
        let how =
            switch settledBy {
            case .intrinsicWidth: localized("took its one-line width, %@: the text will not wrap", format(value))
            case .intrinsicHeight: localized("took the height of its lines, %@", format(value))
            case .childrenExtent: localized("took its children's extent, %@", format(value))
            case .zero: localized("AMBIGUOUS: nothing decides it (set to 0)")
            }
        return localized(
            "%@.%@ (%@) is not fixed by the constraints: %@", view, quantity, localized(axis.rawValue), how)
    }
}

enum LayoutError: Error, Equatable, CustomStringConvertible {
    /// These constraints cannot all hold (the smallest such set, named).
    case contradiction(axis: Axis, constraints: [String])
    /// A constraint between views that are not parent/child, siblings or the same view.
    case unrelatedViews(String)
    /// e.g. `a.width == b.top`: the two attributes are on different axes.
    case mixedAxes(String)
    /// `a.left == 10` with no second view: only width and height may be constants.
    case edgeWithoutSecondView(String)
    /// A constraint on a view that was never added under the view being laid out.
    case notInTree(String, root: String)

    var description: String {
        switch self {
        case .contradiction(let axis, let constraints):
            localized(
                "these %@ constraints contradict each other: %@", localized(axis.rawValue),
                constraints.joined(separator: "; "))
        case .unrelatedViews(let c): localized("%@: the views must be parent and child, siblings, or the same view", c)
        case .mixedAxes(let c): localized("%@: relates a horizontal attribute to a vertical one", c)
        case .edgeWithoutSecondView(let c):
            localized("%@: an edge or centre needs a second view; only width and height can be constants", c)
        case .notInTree(let c, let root):
            localized("%@: a view in it is not a subview of %@ (addSubview first)", c, root)
        }
    }
}

/// Lays out a view tree from its constraints: every frame is computed, none is typed in.
///
/// Each view has two unknowns per axis, its position in its parent (for a scroll view's
/// child: in the scroll view's content) and its size; a scroll view has a third, its
/// content size. Every constraint becomes one linear equation in those unknowns, and the
/// horizontal and vertical equations are solved separately (no constraint mixes axes).
/// What the equations leave open is settled in UIKit's order: a label's intrinsic width,
/// a label's intrinsic height at that width, a scroll view's content from its children,
/// and last, anything still open is reported as ambiguous.
struct Layout {
    let root: View
    var constraints: [Constraint]
    /// The window (or a cell's content view) has a fixed width; its height may be left open.
    var rootWidth: Double
    var rootHeight: Double?

    private enum Role: Int { case position, size, content }

    /// Runs layout: sets every view's frame (and labels' lines, scroll views' content size)
    /// and returns what the constraints left open. Throws, never traps, on a contradiction.
    @discardableResult
    func solve() throws -> [Opening] {
        let views = root.subtree
        // Columns of the unknowns: position and size of every view, content size of scroll views.
        var index: [ObjectIdentifier: Int] = [:]
        var contentIndex: [ObjectIdentifier: Int] = [:]
        for (i, view) in views.enumerated() { index[ObjectIdentifier(view)] = i }
        for view in views where view.isScrollView {
            contentIndex[ObjectIdentifier(view)] = views.count * 2 + contentIndex.count
        }
        func column(_ view: View, _ role: Role) -> Int {
            // Every view of the tree is in `index` (constraints on other views are rejected below).
            let position = index[ObjectIdentifier(view), default: 0]
            return role == .content ? contentIndex[ObjectIdentifier(view), default: 0] : position * 2 + role.rawValue
        }
        let variableCount = views.count * 2 + contentIndex.count
        for constraint in constraints
        where index[ObjectIdentifier(constraint.first)] == nil
            || constraint.second.map({ index[ObjectIdentifier($0)] == nil }) == true
        {
            throw LayoutError.notInTree(constraint.description, root: root.name)
        }

        var openings: [Opening] = []
        for axis in [Axis.horizontal, .vertical] {
            var equations = try constraints.filter { $0.attribute.axis == axis }.map {
                try equation(for: $0, column: column)
            }
            equations += rootEquations(axis, column: column)
            var system = LinearSystem(variableCount: variableCount, equations: equations)
            if system.isContradictory {
                let conflict = LinearSystem.conflictingSubset(of: equations, variableCount: variableCount)
                throw LayoutError.contradiction(axis: axis, constraints: conflict.map { equations[$0].source })
            }
            func settle(_ view: View, _ role: Role, _ quantity: String, to value: Double, by how: Opening.Settlement) {
                equations.append(
                    LinearEquation(
                        coefficients: [column(view, role): 1], constant: value,
                        source: "\(view.name).\(quantity) settled"))
                system = LinearSystem(variableCount: variableCount, equations: equations)
                openings.append(Opening(view: view.name, axis: axis, quantity: quantity, settledBy: how, value: value))
            }
            let sizeName = axis == .horizontal ? "width" : "height"

            // 1. Labels take their intrinsic size where the constraints leave it open.
            for view in views {
                guard case .label(let text, let mode, let lineHeight) = view.kind,
                    system.determinedValues[column(view, .size)] == nil
                else { continue }
                if axis == .horizontal {
                    settle(view, .size, sizeName, to: Double(TextWrapping.oneLineWidth(text)), by: .intrinsicWidth)
                } else {
                    let lines = TextWrapping.wrap(text, width: Int(view.frame.width.rounded(.down)), mode: mode)
                    settle(view, .size, sizeName, to: Double(lines.count) * lineHeight, by: .intrinsicHeight)
                }
            }
            // 2. A scroll view whose content size is still open gets its children's extent.
            for view in views where view.isScrollView && system.determinedValues[column(view, .content)] == nil {
                let values = system.determinedValues
                let reach =
                    view.children.compactMap { child -> Double? in
                        guard let start = values[column(child, .position)], let size = values[column(child, .size)]
                        else { return nil }
                        return start + size
                    }.max() ?? 0
                settle(view, .content, "content " + sizeName, to: reach, by: .childrenExtent)
            }
            // 3. Anything still open is ambiguous: report it by view and quantity, pick 0.
            //    Innermost views first, so that a parent left open can still hug its children.
            for view in views.reversed() {
                for role in [Role.size, .position] where system.determinedValues[column(view, role)] == nil {
                    let quantity = role == .size ? sizeName : (axis == .horizontal ? "left" : "top")
                    settle(view, role, quantity, to: 0, by: .zero)
                }
            }
            let values = system.determinedValues
            // Write this axis into the frames now: the vertical pass wraps labels at these widths.
            for view in views {
                let start = values[column(view, .position)] ?? 0
                let size = values[column(view, .size)] ?? 0
                if axis == .horizontal {
                    view.frame = Rect(x: start, y: 0, width: size, height: 0)
                    view.contentSize.width = view.isScrollView ? values[column(view, .content)] ?? 0 : 0
                } else {
                    view.frame.origin.y = start
                    view.frame.size.height = size
                    view.contentSize.height = view.isScrollView ? values[column(view, .content)] ?? 0 : 0
                }
            }
        }
        for view in views {
            if case .label(let text, let mode, _) = view.kind {
                view.lines = TextWrapping.wrap(text, width: Int(view.frame.width.rounded(.down)), mode: mode)
            }
        }
        return openings
    }

    /// The window's own frame: at the origin, with the width (and height) it was given.
    private func rootEquations(_ axis: Axis, column: (View, Role) -> Int) -> [LinearEquation] {
        var equations = [
            LinearEquation(
                coefficients: [column(root, .position): 1], constant: 0,
                source: "\(root.name).\(axis == .horizontal ? "left" : "top") == 0")
        ]
        if axis == .horizontal {
            equations.append(
                LinearEquation(
                    coefficients: [column(root, .size): 1], constant: rootWidth,
                    source: "\(root.name).width == \(format(rootWidth))"))
        } else if let rootHeight {
            equations.append(
                LinearEquation(
                    coefficients: [column(root, .size): 1], constant: rootHeight,
                    source: "\(root.name).height == \(format(rootHeight))"))
        }
        return equations
    }

    /// `first.attr == m x second.attr + c` as `first.attr - m x second.attr == c`, both sides
    /// written in the coordinate space they share (their parent's, or the parent's own inside).
    private func equation(for constraint: Constraint, column: (View, Role) -> Int) throws -> LinearEquation {
        let text = constraint.description
        guard let second = constraint.second else {
            guard !constraint.attribute.isEdgeOrCenter else { throw LayoutError.edgeWithoutSecondView(text) }
            return LinearEquation(
                coefficients: [column(constraint.first, .size): 1], constant: constraint.constant, source: text)
        }
        guard constraint.attribute.axis == constraint.secondAttribute.axis else { throw LayoutError.mixedAxes(text) }
        let first = constraint.first
        // Who is the "inside" view (seen from its parent) and who the "outside" (the parent itself).
        let firstIsOwner: Bool
        let secondIsOwner: Bool
        if second === first.parent {
            (firstIsOwner, secondIsOwner) = (false, true)
        } else if first === second.parent {
            (firstIsOwner, secondIsOwner) = (true, false)
        } else if first.parent === second.parent {
            (firstIsOwner, secondIsOwner) = (false, false)
        } else {
            throw LayoutError.unrelatedViews(text)
        }
        var coefficients: [Int: Double] = [:]
        func add(_ view: View, _ attribute: Attribute, isOwner: Bool, times factor: Double) {
            let size = column(view, .size)
            if isOwner {
                // Seen from inside: the parent's edges are 0 and its extent; a scroll view's
                // extent is its content size, its width/height are its frame's.
                let extent = view.isScrollView && attribute.isEdgeOrCenter ? column(view, .content) : size
                switch attribute {
                case .left, .top: break
                case .right, .bottom, .width, .height: coefficients[extent, default: 0] += factor
                case .centerX, .centerY: coefficients[extent, default: 0] += factor / 2
                }
            } else {
                let position = column(view, .position)
                switch attribute {
                case .left, .top: coefficients[position, default: 0] += factor
                case .right, .bottom:
                    coefficients[position, default: 0] += factor
                    coefficients[size, default: 0] += factor
                case .width, .height: coefficients[size, default: 0] += factor
                case .centerX, .centerY:
                    coefficients[position, default: 0] += factor
                    coefficients[size, default: 0] += factor / 2
                }
            }
        }
        add(first, constraint.attribute, isOwner: firstIsOwner, times: 1)
        add(second, constraint.secondAttribute, isOwner: secondIsOwner, times: -constraint.multiplier)
        return LinearEquation(coefficients: coefficients, constant: constraint.constant, source: text)
    }
}
