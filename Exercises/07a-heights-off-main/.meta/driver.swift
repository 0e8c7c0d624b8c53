import ExerciseChecks

// Top-level code runs on the main actor; the checks turn the main run loop.
ExerciseDriver.run(Exercise07aChecks.all) {
    Exercise07aChecks.run { table in
        let heights = RowHeights(table: table)
        return Exercise07aChecks.Provider(
            height: { heights.height(forRow: $0) }, measureRows: { await heights.measureRows() })
    }
}
