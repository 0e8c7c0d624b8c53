import ExerciseChecks

ExerciseDriver.run(Exercise07Checks.all) { Exercise07Checks.run { LineBreaker.wrap($0, width: $1) } }
