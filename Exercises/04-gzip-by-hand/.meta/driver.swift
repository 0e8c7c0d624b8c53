import ExerciseChecks
import WorkshopCore

ExerciseDriver.report(
    Exercise04Checks.run(
        headers: { GzipByHand.requestHeaders(acceptGzip: $0) },
        decode: { try GzipByHand.decodedBody(of: $0) }))
