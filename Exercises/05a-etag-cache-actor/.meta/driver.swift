import ExerciseChecks
import Foundation

await ExerciseDriver.run(Exercise05aChecks.all) {
    await Exercise05aChecks.run { client, now in
        let cache = ImageCache(client: client, now: now)
        return { try await cache.data(for: $0) }
    }
}
