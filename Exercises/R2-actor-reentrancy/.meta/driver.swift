import ExerciseChecks

await ExerciseDriver.run(ExerciseR2Checks.all) {
    await ExerciseR2Checks.run { loader in
        let cache = AvatarCache(loader: loader)
        return { try await cache.avatar(for: $0) }
    }
}
