import ExerciseChecks
import Lesson05Kit
import WorkshopCore

ExerciseDriver.run(Exercise05Checks.all) { Exercise05Checks.run { try OrderResolver.resolve($0, using: $1) } }
