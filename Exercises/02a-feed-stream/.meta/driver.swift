import ExerciseChecks

// Top-level code runs on the main actor; the checks turn the main run loop and consume the
// stream there, in a task of their own.
ExerciseDriver.run(Exercise02aChecks.all) { Exercise02aChecks.run { FeedStream.events(url: $0) } }
