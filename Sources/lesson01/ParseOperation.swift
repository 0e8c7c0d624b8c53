import Foundation
import WorkshopCore

/// The parse step as its own operation, as the article itself suggests: it depends on a
/// `FetchOperation` and turns that fetch's body into a value.
///
/// How the data gets here: a dependency guarantees order, not delivery. When the queue runs
/// `main()`, `source` has finished (that is what `addDependency` promises), so this
/// operation simply reads `source.result`. Nothing is pushed; the dependant pulls.
///
/// This is an ordinary synchronous operation: the queue runs `main()` on one of its threads
/// and counts it finished when `main()` returns, so it needs none of FetchOperation's state.
final class ParseOperation<Output: Sendable>: Operation, @unchecked Sendable {  // @unchecked: `stored` is a Locked; `source` and `parse` are constants; `onFinish` is set before the operation is queued
    let source: FetchOperation
    private let parse: @Sendable (FetchedBody) throws -> Output
    private let stored = Locked<Result<Output, FetchFailure>?>(nil)  // written by main(), read from any thread
    /// Called exactly once, when the operation has finished (also when it was cancelled).
    var onFinish: (@Sendable (Result<Output, FetchFailure>) -> Void)?

    init(parsing source: FetchOperation, name: String? = nil, parse: @escaping @Sendable (FetchedBody) throws -> Output) {
        self.source = source
        self.parse = parse
        super.init()
        self.name = name
        addDependency(source)  // run only after the fetch has finished, whatever its outcome
        // The completion block runs once the operation is finished, cancelled or not (a
        // cancelled operation never runs main()): the one place every path passes through.
        completionBlock = { [weak self] in
            guard let self else { return }
            let result = self.stored.withLock { stored -> Result<Output, FetchFailure> in
                if stored == nil { stored = .failure(.cancelled) }
                return stored!
            }
            self.onFinish?(result)
        }
    }

    /// The value, or why there is none. Nil until the operation has run.
    var result: Result<Output, FetchFailure>? { stored.current }

    override func main() {
        let outcome: Result<Output, FetchFailure>
        if isCancelled {
            outcome = .failure(.cancelled)
        } else {
            switch source.result {
            case .success(let body)?:
                do { outcome = .success(try parse(body)) } catch { outcome = .failure(.unparseable("\(error)")) }
            case .failure(.cancelled)?:
                outcome = .failure(.cancelled)  // the fetch was cancelled: so is its result
            case .failure(let failure)?:
                outcome = .failure(.dependencyFailed("\(source.name ?? "fetch"): \(failure)"))
            case nil:
                // Only possible if someone removed the dependency: say so rather than guess.
                outcome = .failure(.dependencyFailed("\(source.name ?? "fetch") had not finished"))
            }
        }
        stored.withLock { $0 = outcome }
    }
}
