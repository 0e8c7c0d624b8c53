import ExerciseChecks
import WorkshopCore

ExerciseDriver.run(Exercise04Checks.all) {
    Exercise04Checks.run(
        headers: { GzipByHand.requestHeaders(acceptGzip: $0) },
        decode: { try GzipByHand.decodedBody(of: $0) })
}
