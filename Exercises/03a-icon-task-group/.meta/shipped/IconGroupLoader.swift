// Exercise 03a: fetch the icons in a task group, `width` at a time, each set on its row on the main actor.
// Check it: swift run workshop check 03a
import ExerciseChecks

/// Loads one icon per name into `rows` (row `i` gets `names[i]`'s icon; a failed fetch leaves
/// its row empty) and returns when every icon is in. It runs on the main actor, like the
/// code of a screen: `IconRows` belongs to the main actor, and only code there may set an icon.
/// As shipped it is correct but slow: one fetch after the other.
public enum IconGroupLoader {
    @MainActor
    public static func loadIcons(named names: [String], width: Int, from source: IconSource, into rows: IconRows)
        async
    {
        for (row, name) in names.enumerated() {
            // TODO(1): one fetch at a time. Fetch in a task group instead, `width` fetches at most at once.
            let icon = try? await source.icon(named: name)

            // TODO(2): icons come back out of order: each must still go to its own row, set here on the main actor.
            rows.setIcon(icon, row: row)
        }
    }
}
