import ExerciseChecks
import Lesson03Kit
import WorkshopCore

ExerciseDriver.run(Exercise03Checks.all) {
    Exercise03Checks.run { IconLoader.loadIcons(for: $0, into: $1, using: $2, imageQueue: $3) }
}
