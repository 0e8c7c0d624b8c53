import ExerciseChecks

public enum IconGroupLoader {
    @MainActor
    public static func loadIcons(
        named names: [String], width: Int, from source: IconSource, into rows: IconRows
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for (row, name) in names.enumerated() {
                if row >= width { await group.next() }
                group.addTask {
                    let icon = try? await source.icon(named: name)
                    await MainActor.run { rows.setIcon(icon, row: row) }
                }
            }
        }
    }
}
