import Exercise01
import Foundation
import WorkshopCore

/// Reference solution of exercise 01. Kept under Tests/ so a learner does not stumble on it.
final class ParseStepSolution<Output: Sendable>: Operation, @unchecked Sendable {  // @unchecked: `stored` is a Locked; the rest are constants
    private let source: any BodyProducing
    private let parse: @Sendable (Data) throws -> Output
    private let stored = Locked<Result<Output, any Error>?>(nil)  // written in main(), read from any thread

    init(source: any BodyProducing, parse: @escaping @Sendable (Data) throws -> Output) {
        self.source = source
        self.parse = parse
        super.init()
        addDependency(source)  // run after the fetch has finished, however it finished
    }

    var output: Result<Output, any Error>? { stored.current }

    override func main() {
        let outcome: Result<Output, any Error>
        if source.isCancelled {
            outcome = .failure(ParseStepFailure.sourceCancelled)
        } else {
            switch source.body {
            case .success(let data)?: outcome = Result { try parse(data) }
            case .failure(let error)?: outcome = .failure(ParseStepFailure.sourceFailed("\(error)"))
            case nil: outcome = .failure(ParseStepFailure.sourceFailed("the fetch produced nothing"))
            }
        }
        stored.withLock { $0 = outcome }
    }
}
