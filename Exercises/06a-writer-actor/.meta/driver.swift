import ExerciseChecks

await ExerciseDriver.run(Exercise06aChecks.all) {
    await Exercise06aChecks.run { path in
        let writer = try FlagWriter(path: path)
        return { try await writer.save($0) }
    }
}
