/// One row as the user sees it.
public struct TableRow: Equatable, Sendable {
    public var text: String
    public var detail: String
    /// The row's image (an icon), or nil while it is still loading.
    public var icon: [UInt8]?

    public init(text: String, detail: String = "", icon: [UInt8]? = nil) {
        self.text = text
        self.detail = detail
        self.icon = icon
    }
}

/// A table that behaves like UIKit's `UITableView` where it matters for threading:
/// it may only be touched on the main queue, and its cells are **reused**. After
/// `reloadData` a cell object may show a different row than before, so code that kept a
/// cell while waiting for the network must look the row's cell up again.
public final class TableView: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    public private(set) var rows: [TableRow] = []
    /// Shown while there are no rows, e.g. "loading...".
    public var placeholder: String? {
        didSet {
            requireMainQueue()
            changed(.placeholder(placeholder))
        }
    }
    public private(set) var reloadCount = 0
    /// How many rows fit on the screen; nil (the default) shows every row. Like a phone's
    /// table, only these rows are drawn, and only they get `willDisplayRow`.
    public var visibleRowCount: Int?
    /// The first row on the screen (moved by `scroll(by:)`).
    public private(set) var firstVisibleRow = 0
    /// Called for each row about to come on the screen, as UIKit's
    /// `tableView(_:willDisplay:forRowAt:)`: after `reloadData` for every visible row, after a
    /// scroll for the rows that came into view. A lesson loads a row's image from here.
    public var willDisplayRow: ((Int) -> Void)?

    private var cells: [TableCell] = []
    private var reuseShift = 0
    var onChange: ((ScreenEvent) -> Void)?
    /// Called with the number of rows whose content changed (a reload: every row; an icon: one).
    var onRowsChanged: ((Int) -> Void)?

    public init() {}

    /// Replaces every row, as `reloadData` does: the visible cells are handed out again,
    /// each one now showing another row (that is how reuse moves cells around).
    public func reloadData(count: Int, row: (Int) -> TableRow) {
        requireMainQueue()
        rows = (0..<count).map(row)
        reloadCount += 1
        if cells.count != count {
            cells = (0..<count).map { TableCell(table: self, slot: $0) }
            reuseShift = 0
        } else if count > 0 {
            reuseShift = (reuseShift + 1) % count
        }
        firstVisibleRow = max(0, min(firstVisibleRow, count - (visibleRowCount ?? count)))
        changed(.reload(rows: count))
        onRowsChanged?(count)
        for row in visibleRows { willDisplayRow?(row) }
    }

    /// The rows on the screen now.
    public var visibleRows: Range<Int> {
        firstVisibleRow..<min(rows.count, firstVisibleRow + (visibleRowCount ?? rows.count))
    }

    /// Scrolls by `delta` rows (negative: up), stopping at either end, as a finger would.
    public func scroll(by delta: Int) {
        requireMainQueue()
        let before = visibleRows
        firstVisibleRow = max(0, min(firstVisibleRow + delta, rows.count - (visibleRowCount ?? rows.count)))
        changed(.scroll(first: visibleRows.lowerBound + 1, last: visibleRows.upperBound))
        for row in visibleRows where !before.contains(row) { willDisplayRow?(row) }
    }

    /// The cell showing `row` right now, or nil if there is no such row.
    public func cell(forRow row: Int) -> TableCell? {
        requireMainQueue()
        guard rows.indices.contains(row) else { return nil }
        return cells[(row - reuseShift + cells.count) % cells.count]
    }

    func row(ofSlot slot: Int) -> Int { (slot + reuseShift) % max(cells.count, 1) }

    func setIcon(_ icon: [UInt8]?, row: Int) {
        rows[row].icon = icon
        changed(.icon(row: row + 1))
        onRowsChanged?(1)
    }

    func changed(_ event: ScreenEvent) { onChange?(event) }
}

/// A reusable cell: a handle on whichever row it shows *now* (see `TableView`). Sendable,
/// checked: it holds only constants; what it shows is the table's, on the main queue.
public final class TableCell: Sendable {
    private weak let table: TableView?
    private let slot: Int

    init(table: TableView, slot: Int) {
        self.table = table
        self.slot = slot
    }

    /// The row this cell shows at this moment.
    public var row: Int {
        requireMainQueue()
        return table?.row(ofSlot: slot) ?? -1
    }

    /// Setting the icon changes the row the cell shows at this moment.
    public var icon: [UInt8]? {
        get {
            requireMainQueue()
            return table.map { $0.rows[$0.row(ofSlot: slot)].icon } ?? nil
        }
        set {
            requireMainQueue()
            guard let table else { return }
            table.setIcon(newValue, row: table.row(ofSlot: slot))
        }
    }
}
