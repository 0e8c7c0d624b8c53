import ExerciseChecks

public enum IconGroupLoader {
    @MainActor
    public static func loadIcons(
        named names: [String], width: Int, from source: IconSource, into rows: IconRows
    ) async {
        await withTaskGroup(of: [UInt8]?.self) { group in
            var arrived = 0
            for (row, name) in names.enumerated() {
                if row >= width, let icon = await group.next() {
                    rows.setIcon(icon, row: arrived)
                    arrived += 1
                }
                group.addTask { try? await source.icon(named: name) }
            }
            for await icon in group {
                rows.setIcon(icon, row: arrived)
                arrived += 1
            }
        }
    }
}
