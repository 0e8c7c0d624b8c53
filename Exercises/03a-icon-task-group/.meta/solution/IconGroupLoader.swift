// Exercise 03a: fetch the icons in a task group, `width` at a time, each set on its row on the main actor.
// Check it: swift run workshop check 03a
import ExerciseChecks

/// Loads one icon per name into `rows` (row `i` gets `names[i]`'s icon; a failed fetch leaves
/// its row empty) and returns when every icon is in. It runs on the main actor, like the
/// code of a screen: `IconRows` belongs to the main actor, and only code there may set an icon.
public enum IconGroupLoader {
    @MainActor
    public static func loadIcons(named names: [String], width: Int, from source: IconSource, into rows: IconRows)
        async
    {
        // Each child task answers with its row, so an icon that comes back early still lands on
        // the right row. The group's body runs on the main actor (where this function runs), so
        // it may set the icons; the children only fetch, off the main actor.
        await withTaskGroup(of: (row: Int, icon: [UInt8]?).self) { group in
            for (row, name) in names.enumerated() {
                // `width` fetches in flight: wait for one to end before starting the next.
                if row >= width, let done = await group.next() {
                    rows.setIcon(done.icon, row: done.row)
                }
                group.addTask { (row, try? await source.icon(named: name)) }
            }
            for await done in group {
                rows.setIcon(done.icon, row: done.row)
            }
        }
    }
}
