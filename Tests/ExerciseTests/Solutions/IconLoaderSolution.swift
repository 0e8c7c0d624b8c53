import Dispatch
import WorkshopCore

/// Reference solution of exercise 03. Kept under Tests/ so a learner does not stumble on it.
enum IconLoaderSolution {
    static func loadIcons(for entries: [TimelineEntry], into table: TableView,
                          using client: TimelineClient, imageQueue: DispatchQueue) {
        for (index, entry) in entries.enumerated() {
            imageQueue.async {
                let icon = try? client.icon(for: entry)
                DispatchQueue.main.async {
                    // Look the cell up now: the one that showed `index` earlier may show another row.
                    table.cell(forRow: index)?.icon = icon
                }
            }
        }
    }
}
