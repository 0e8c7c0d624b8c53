import ExerciseChecks

ExerciseDriver.report(Exercise07Checks.run { LineBreaker.wrap($0, width: $1) })
