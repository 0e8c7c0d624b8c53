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
// @unchecked: restated, as for every `Operation` subclass (see FetchOperation). `stored` is a Locked;
// `source` and `parse` are constants; `onFinish` is set before the operation is queued.
public final class ParseOperation<Output: Sendable>: Operation, @unchecked Sendable {
    public let source: FetchOperation
    private let parse: @Sendable (FetchedBody) throws -> Output
    private let stored = Locked<Result<Output, FetchError>?>(nil)  // written by main(), read from any thread
    /// Called exactly once, when the operation has finished (also when it was cancelled).
    public var onFinish: (@Sendable (Result<Output, FetchError>) -> Void)?

    public init(
        parsing source: FetchOperation, name: String? = nil, parse: @escaping @Sendable (FetchedBody) throws -> Output
    ) {
        self.source = source
        self.parse = parse
        super.init()
        self.name = name
        addDependency(source)  // run only after the fetch has finished, whatever its outcome
        // The completion block runs once the operation is finished, cancelled or not (a
        // cancelled operation never runs main()): the one place every path passes through.
        completionBlock = { [weak self] in
            guard let self else { return }
            let result = self.stored.withLock { stored -> Result<Output, FetchError> in
                let result = stored ?? .failure(.cancelled(url: self.name ?? "parse"))
                stored = result
                return result
            }
            self.onFinish?(result)
        }
    }

    /// The value, or why there is none. Nil until the operation has run.
    public var result: Result<Output, FetchError>? { stored.current }

    override public func main() {
        let outcome: Result<Output, FetchError>
        if isCancelled {
            outcome = .failure(.cancelled(url: name ?? "parse"))
        } else {
            switch source.result {
            case .success(let body)?:
                outcome = AccountParsing.run(parse, on: body)
            case .failure(let error)?:
                // A failed or cancelled fetch is passed on as it is: there is nothing to parse.
                outcome = .failure(error)
            case nil:
                // Only possible if someone removed the dependency: say so rather than guess.
                outcome = .failure(.cancelled(url: "\(source.name ?? "the fetch") had not finished"))
            }
        }
        stored.withLock { $0 = outcome }
    }
}
