import ExerciseChecks

ExerciseDriver.run(Exercise02Checks.all) {
    Exercise02Checks.run {
        let thread = WorkerThread()
        thread.start(name: "exercise-02-worker")
        return Exercise02Checks.Worker(
            post: { thread.post($0) }, stop: { thread.stop(timeout: $0) }, turns: { thread.loopTurns })
    }
}
