import ExerciseChecks
import Foundation

ExerciseDriver.report(
    await Exercise05aChecks.run { client, now in
        let cache = ImageCache(client: client, now: now)
        return { try await cache.data(for: $0) }
    })
