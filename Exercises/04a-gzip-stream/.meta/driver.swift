import ExerciseChecks

await ExerciseDriver.run(Exercise04aChecks.all) {
    await Exercise04aChecks.run(
        decoder: {
            let stream = try GzipStream()
            return Exercise04aChecks.Decoder(append: stream.append, finish: stream.finish, instance: stream)
        },
        read: { chunks, record in try await GzipRecords.read(chunks, record: record) })
}
