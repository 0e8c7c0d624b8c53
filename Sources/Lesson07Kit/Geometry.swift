/// The four value types every layout is made of, as in Core Graphics (CGPoint, CGSize,
/// CGRect, UIEdgeInsets). Horizontal units here are terminal cells; vertical ones are lines
/// on screen or points in the table cells: the maths does not care which.
struct Point: Equatable, Sendable {
    var x: Double
    var y: Double
    static let zero = Point(x: 0, y: 0)
}

struct Size: Equatable, Sendable {
    var width: Double
    var height: Double
    static let zero = Size(width: 0, height: 0)
}

struct Rect: Equatable, Sendable, CustomStringConvertible {
    var origin: Point
    var size: Size

    /// A view's frame before layout has run: UIKit's too. This is the rounded-corner gotcha.
    static let zero = Rect(origin: .zero, size: .zero)

    init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    var minX: Double { origin.x }
    var minY: Double { origin.y }
    var maxX: Double { origin.x + size.width }
    var maxY: Double { origin.y + size.height }
    var width: Double { size.width }
    var height: Double { size.height }
    var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

    /// The rect shrunk by `insets` on each side (never below zero size).
    func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: max(0, width - insets.left - insets.right),
            height: max(0, height - insets.top - insets.bottom))
    }

    /// The same rect moved by (dx, dy), e.g. from content coordinates to the screen's.
    func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    var description: String { "(\(format(minX)), \(format(minY)), \(format(width)) x \(format(height)))" }
}

struct EdgeInsets: Equatable, Sendable {
    var top: Double
    var left: Double
    var bottom: Double
    var right: Double
    static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// 3 rather than 3.0, 2.5 as 2.5: frames read like the article's numbers.
func format(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
}
