import ExerciseChecks
import Lesson05Kit
import WorkshopCore

ExerciseDriver.report(Exercise05Checks.run { try OrderResolver.resolve($0, using: $1) })
