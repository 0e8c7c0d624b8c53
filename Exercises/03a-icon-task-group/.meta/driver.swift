import ExerciseChecks

// Top-level code runs on the main actor; the checks turn the main run loop.
ExerciseDriver.run(Exercise03aChecks.all) {
    Exercise03aChecks.run { await IconGroupLoader.loadIcons(named: $0, width: $1, from: $2, into: $3) }
}
