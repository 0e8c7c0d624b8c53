import WorkshopCore

/// The "view controller" of the table part: it owns the height cache and shows the top of
/// the table with each row's height and the content height. It never measures anything
/// itself; the variants decide where measuring runs.
@MainActor
final class RowHeightsController: LessonController {
    let cache: HeightCache
    let texts: [String]
    /// Rows visible on screen (the Screen shows these; the rest is below the fold).
    let visibleRows: Int

    init(title: String, output: ScreenOutput, texts: [String], estimatedHeight: Double, visibleRows: Int = 6) {
        self.texts = texts
        self.visibleRows = min(visibleRows, texts.count)
        cache = HeightCache(rows: texts.count, estimatedHeight: estimatedHeight)
        super.init(title: title, output: output)
    }

    override var isFinished: Bool { super.isFinished || cache.isComplete }
    override var progress: String {
        localized(
            cache.rowCount == 1 ? "%d of %d row measured" : "%d of %d rows measured", cache.measuredCount,
            cache.rowCount)
    }

    /// `reloadData`: the table asks every row's height (for its scroll bar) and draws the
    /// visible ones. Estimated heights are marked with "~".
    func reload() {
        trace.measure("reload") {
            var contentHeight = 0.0
            for row in 0..<cache.rowCount { contentHeight += cache.height(ofRow: row) }
            screen.table.reloadData(count: visibleRows) { row in
                let height = cache.height(ofRow: row)
                return TableRow(text: texts[row], detail: (cache.isMeasured(row) ? "" : "~") + format(height) + "pt")
            }
            screen.status = localized(
                "content height %@ pt; %d of %d rows measured", format(contentHeight), cache.measuredCount,
                cache.rowCount)
        }
    }

    /// Measured heights arrived for rows `start...`: cache them, reload.
    func deliver(_ heights: [Double], from start: Int) {
        cache.store(heights, from: start)
        reload()
    }
}
