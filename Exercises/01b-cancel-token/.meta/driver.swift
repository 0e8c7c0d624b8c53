import Dispatch
import ExerciseChecks

// The checks drive the loader through `ItemLoading`; the learner's class conforms as it is.
extension ItemLoader: ItemLoading {}

// Top-level code runs on the main actor; the checks turn the main run loop.
ExerciseDriver.run(Exercise01bChecks.all) {
    Exercise01bChecks.run { ItemLoader(client: $0, screen: $1, queue: $2) }
}
