import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer

// The checks' fetch is the source your step depends on.
extension CheckFetch: BodyProducing {}

ExerciseDriver.run(Exercise01Checks.all) {
    Exercise01Checks.run(
        makeStep: { ParseStep(source: $0, parse: $1) },
        output: { step in
            (step as? ParseStep<AccountProfile>)?.output.map { result in
                result.mapError { error -> any Error in
                    switch error as? ParseStepFailure {
                    case .sourceFailed(let why)?: Exercise01Checks.StepFailure.sourceFailed(why)
                    case .sourceCancelled?: Exercise01Checks.StepFailure.sourceCancelled
                    case nil: error
                    }
                }
            }
        })
}
