import ExerciseChecks

// The check program: with --list-checks it prints the checks as declared, else it runs them.
ExerciseDriver.run(Exercise07bChecks.all) { Exercise07bChecks.run() }
