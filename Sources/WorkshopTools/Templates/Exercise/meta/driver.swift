import ExerciseChecks

// The check program: with --list-checks it prints the checks as declared, else it runs them.
ExerciseDriver.run(ExerciseNNxChecks.all) { ExerciseNNxChecks.run() }
