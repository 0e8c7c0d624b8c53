import ExerciseChecks

// Top-level code runs on the main actor; the checks turn the main run loop.
ExerciseDriver.run(Exercise01aChecks.all) {
    Exercise01aChecks.run { try await AccountLoader.showAccount(from: $0, on: $1) }
}
