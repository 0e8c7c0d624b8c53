/// A view of the layout model: a name (the ambiguity report and the errors use it), a
/// parent, and a frame that only layout sets. Three kinds, as in the articles:
/// a plain view (UIView), a label that wraps its text (UILabel, numberOfLines = 0), and a
/// scroll view whose *content* is as large as the constraints to its edges say.
///
/// Views are plain classes with no lock: each view tree belongs to one thread at a time
/// (the screen's on main, a sizing cell on whichever queue measures with it).
final class View {
    enum Kind {
        case plain
        case label(text: String, mode: WrapMode, lineHeight: Double)
        case scroll
    }

    let name: String
    var kind: Kind
    private(set) weak var parent: View?
    private(set) var children: [View] = []

    /// Set by `Layout.solve`; `.zero` until then, exactly like a UIView before layout.
    var frame = Rect.zero
    /// For a scroll view: the size of what scrolls (UIScrollView.contentSize), set by layout.
    var contentSize = Size.zero
    /// For a label: its lines at the width layout gave it.
    var lines: [String] = []

    init(_ name: String, kind: Kind = .plain) {
        self.name = name
        self.kind = kind
    }

    static func label(_ name: String, text: String, mode: WrapMode = .word, lineHeight: Double = 1) -> View {
        View(name, kind: .label(text: text, mode: mode, lineHeight: lineHeight))
    }

    func addSubview(_ child: View) {
        child.parent = self
        children.append(child)
    }

    var isScrollView: Bool { if case .scroll = kind { true } else { false } }

    /// This view and every view under it, parents first.
    var subtree: [View] { [self] + children.flatMap(\.subtree) }

    /// The label's text, nil for other views.
    var text: String? {
        get { if case .label(let text, _, _) = kind { text } else { nil } }
        set {
            guard case .label(_, let mode, let lineHeight) = kind, let newValue else { return }
            kind = .label(text: newValue, mode: mode, lineHeight: lineHeight)
        }
    }
}

/// The attributes of NSLayoutConstraint that this model knows.
enum Attribute: String, Sendable, CaseIterable {
    case left, right, top, bottom, width, height, centerX, centerY

    var axis: Axis {
        switch self {
        case .left, .right, .width, .centerX: .horizontal
        case .top, .bottom, .height, .centerY: .vertical
        }
    }

    /// Edges and centres of a scroll view, seen from inside, are the edges of its *content*;
    /// its width and height are its frame's. That one rule is the whole first article.
    var isEdgeOrCenter: Bool { self != .width && self != .height }
}

enum Axis: String, Sendable {
    case horizontal, vertical
}

/// `first.attribute == multiplier x second.attribute + constant`, or, with no `second`,
/// `first.attribute == constant` (a fixed width or height).
struct Constraint: CustomStringConvertible {
    let first: View
    let attribute: Attribute
    let second: View?
    let secondAttribute: Attribute
    var multiplier: Double
    /// `var`, as in UIKit: the sizing cell changes constants and lays out again.
    var constant: Double

    init(
        _ first: View, _ attribute: Attribute, equalTo second: View?, _ secondAttribute: Attribute? = nil,
        multiplier: Double = 1, constant: Double = 0
    ) {
        self.first = first
        self.attribute = attribute
        self.second = second
        self.secondAttribute = secondAttribute ?? attribute
        self.multiplier = multiplier
        self.constant = constant
    }

    var description: String {
        let left = "\(first.name).\(attribute.rawValue)"
        guard let second else { return "\(left) == \(format(constant))" }
        var right = "\(second.name).\(secondAttribute.rawValue)"
        if multiplier != 1 { right = "\(format(multiplier)) x \(right)" }
        if constant > 0 { right += " + \(format(constant))" }
        if constant < 0 { right += " - \(format(-constant))" }
        return "\(left) == \(right)"
    }
}
