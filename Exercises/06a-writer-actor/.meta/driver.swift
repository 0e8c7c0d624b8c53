import ExerciseChecks

ExerciseDriver.report(
    await Exercise06aChecks.run { path in
        let writer = try FlagWriter(path: path)
        return { try await writer.save($0) }
    })
